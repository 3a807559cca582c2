/**
 * `@defer` as the Storefront API answers it: `multipart/mixed` incremental delivery, the initial
 * payload without the deferred fields (`hasNext: true`), then one `incremental` payload with them at
 * their path (https://shopify.dev/docs/api/storefront#directives; the 2026-10 schema's `@defer` on
 * inline fragments). Queries and mutations alike: Shopify documents a deferred fragment in the cart
 * of a `cartCreate` payload (https://shopify.dev/docs/apps/build/discounts/network-access-in-cart).
 * graphql-js 16 executes the whole document; the split is done on its result. Inline fragments only
 * (what clients send); fragment spreads are answered at once.
 */
import type { ServerResponse } from 'node:http';
import { Kind, type InlineFragmentNode, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';

type Path = Array<string | number>;
type Json = Record<string, unknown>;

const isDeferred = (node: InlineFragmentNode) =>
  node.directives?.some(
    (d) => d.name.value === 'defer' && !d.arguments?.some((a) => a.name.value === 'if' && a.value.kind === Kind.BOOLEAN && !a.value.value),
  ) ?? false;

const keysOf = (set: SelectionSetNode) => set.selections.flatMap((s) => (s.kind === Kind.FIELD ? [s.alias?.value ?? s.name.value] : []));

/** Where each deferred fragment sits in the result, and the response keys it holds. */
function deferredParts(set: SelectionSetNode, data: unknown, path: Path, out: Array<{ path: Path; keys: string[] }>) {
  if (!data || typeof data !== 'object') return;
  for (const s of set.selections) {
    if (s.kind === Kind.INLINE_FRAGMENT) {
      if (isDeferred(s)) out.push({ path, keys: keysOf(s.selectionSet) });
      else deferredParts(s.selectionSet, data, path, out);
    } else if (s.kind === Kind.FIELD && s.selectionSet) {
      const key = s.alias?.value ?? s.name.value;
      const value = (data as Json)[key];
      if (Array.isArray(value)) value.forEach((item, i) => deferredParts(s.selectionSet!, item, [...path, key, i], out));
      else deferredParts(s.selectionSet, value, [...path, key], out);
    }
  }
}

const at = (data: unknown, path: Path) => path.reduce<unknown>((v, k) => (v as Json | undefined)?.[k as string], data);

export function hasDefer(set: SelectionSetNode): boolean {
  return set.selections.some(
    (s) => (s.kind === Kind.INLINE_FRAGMENT && isDeferred(s)) || ('selectionSet' in s && !!s.selectionSet && hasDefer(s.selectionSet)),
  );
}

/**
 * `Cart.deliveryGroups(withCarrierRates: true)` outside a deferred fragment: the schema says the
 * argument "requires mandatory usage of the `@defer` directive".
 */
export function carrierRatesWithoutDefer(set: SelectionSetNode, deferred = false): boolean {
  return set.selections.some((s) => {
    if (s.kind === Kind.INLINE_FRAGMENT) return carrierRatesWithoutDefer(s.selectionSet, deferred || isDeferred(s));
    if (s.kind !== Kind.FIELD) return false;
    const asks =
      s.name.value === 'deliveryGroups' &&
      s.arguments?.some((a) => a.name.value === 'withCarrierRates' && !(a.value.kind === Kind.BOOLEAN && !a.value.value));
    return (asks && !deferred) || (!!s.selectionSet && carrierRatesWithoutDefer(s.selectionSet, deferred));
  });
}

const BOUNDARY = 'graphql';

/**
 * Answers `data` in two parts: without the deferred fields, then those fields at their paths. A
 * deferred fragment left out by `@include`/`@skip` was not executed and has no part; with none
 * executed the answer is one plain result, as graphql-js's incremental executor gives it.
 */
export function sendDeferred(res: ServerResponse, operation: OperationDefinitionNode, data: Json, extra: Json): void {
  const parts: Array<{ path: Path; keys: string[] }> = [];
  deferredParts(operation.selectionSet, data, [], parts);
  const initial = structuredClone(data);
  const incremental = parts.flatMap(({ path, keys }) => {
    const full = at(data, path) as Json | null | undefined;
    const target = at(initial, path) as Json | null | undefined;
    const executed = keys.filter((k) => full && k in full);
    if (!full || !target || !executed.length) return [];
    for (const key of executed) delete target[key];
    return [{ path, data: Object.fromEntries(executed.map((k) => [k, full[k]])) }];
  });
  if (!incremental.length) {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify({ data, ...extra }));
    return;
  }
  const part = (body: unknown) => `--${BOUNDARY}\r\nContent-Type: application/json; charset=utf-8\r\n\r\n${JSON.stringify(body)}\r\n`;
  res.writeHead(200, { 'content-type': `multipart/mixed; boundary="${BOUNDARY}"; deferSpec=20220824` });
  res.write(part({ data: initial, ...extra, hasNext: true }));
  res.end(`${part({ incremental, hasNext: false })}--${BOUNDARY}--\r\n`);
}
