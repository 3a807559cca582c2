/**
 * The buyer's language from `Accept-Language` (RFC 9110 §12.5.4; spec part 1 §5 gives the header
 * its standard meaning): the tag with the highest weight, earlier first on ties; `*`, weight 0
 * and malformed entries are skipped. Undefined when no usable tag is sent (the store's default).
 */
const TAG = /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/;
const WEIGHT = /^q=(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/i;

export function preferredLanguage(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value || value.length > 1024) return undefined;
  let best: { tag: string; weight: number } | undefined;
  for (const entry of value.split(',')) {
    const [rawTag, ...params] = entry.split(';').map((p) => p.trim());
    if (!rawTag || !TAG.test(rawTag)) continue;
    const q = params.map((p) => WEIGHT.exec(p)).find(Boolean);
    if (params.length > 0 && !q) continue;
    const weight = q ? Number(q[1]) : 1;
    if (weight > 0 && (!best || weight > best.weight)) best = { tag: rawTag, weight };
  }
  return best?.tag;
}
