/**
 * The quote handle of a WooCommerce session: the store cart's Cart-Token and the `Nonce` the
 * store's last Store API answer for that cart carried. Cart writes need no nonce while their
 * Cart-Token is valid (AbstractCartRoute::requires_nonce), but the checkout always does
 * (Checkout::requires_nonce returns true: without it, 401 woocommerce_rest_missing_nonce), so the
 * nonce travels with the cart it came with. Written `token#nonce` ('#' is in neither a JWT nor a
 * nonce); a bare token reads as a cart whose nonce is not known yet.
 */
export interface CartSession {
  token: string;
  nonce?: string;
}

export const encodeHandle = ({ token, nonce }: CartSession): string => (nonce ? `${token}#${nonce}` : token);

export function decodeHandle(handle: string | undefined): CartSession | undefined {
  if (!handle) return undefined;
  const [token = '', nonce] = handle.split('#', 2);
  return { token, ...(nonce && { nonce }) };
}
