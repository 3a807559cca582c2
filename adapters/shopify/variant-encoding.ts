/**
 * Decodes Shopify's `encodedVariantExistence` / `encodedVariantAvailability` ("v1_" format) into
 * the option value index combinations it lists. The format, as Shopify documents it for Hydrogen's
 * `decodeEncodedVariant`: a trie with one level per option; "i:" opens the children of value i
 * and "," closes them; the last level lists indices as ranges ("0-2") separated by spaces.
 * Example from that documentation: "v1_0:0-2,1:2," = [0,0] [0,1] [0,2] [1,2].
 * Written here because the decoder ships only inside @shopify/hydrogen-react (a React package).
 */
export function decodeVariants(encoded: string | null | undefined): number[][] {
  if (!encoded?.startsWith('v1_')) return [];
  const body = encoded.slice(3);
  const out: number[][] = [];
  const path: number[] = [];
  let number = '';
  let rangeStart: number | null = null;
  const emitLeaf = (value: number) => {
    if (rangeStart !== null) {
      for (let i = rangeStart; i <= value; i++) out.push([...path, i]);
      rangeStart = null;
    } else out.push([...path, value]);
  };
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c >= '0' && c <= '9') {
      number += c;
      continue;
    }
    const value = number === '' ? null : Number(number);
    number = '';
    if (c === ':') path.push(value!);
    else if (c === '-') rangeStart = value;
    else if (c === ' ') emitLeaf(value!);
    else if (c === ',') {
      if (value !== null) emitLeaf(value);
      path.pop();
    } else return [];
  }
  if (number !== '') emitLeaf(Number(number));
  return out;
}
