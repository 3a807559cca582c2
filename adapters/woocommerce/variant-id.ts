/**
 * Variant ids. A simple product is its own variant (its post id); a variation is its post id;
 * a variation that leaves attributes empty ("any") is one variant per value the buyer can pick,
 * written `{variation id}~{value}~{value}` (values URI-encoded, in the parent's attribute order),
 * so the chosen values travel with the id into the cart (`variation` of add-item) and the order
 * (line item meta).
 */
export interface VariantRef {
  /** Post id of the simple product or the variation. */
  id: number;
  /** Values picked for the variation's "any" attributes, in attribute order. */
  anyValues: string[];
}

export function encodeVariantId(id: number, anyValues: string[] = []): string {
  return [String(id), ...anyValues.map(encodeURIComponent)].join('~');
}

export function decodeVariantId(variantId: string): VariantRef | null {
  const [head, ...rest] = variantId.split('~');
  if (!head || !/^[1-9]\d{0,18}$/.test(head)) return null;
  try {
    return { id: Number(head), anyValues: rest.map(decodeURIComponent) };
  } catch {
    return null;
  }
}
