/**
 * What every Store API cart route does around its handler (src/StoreApi/Routes/V1/AbstractCartRoute.php,
 * get_response):
 * - the cart session: the HTTP request's own Cart-Token (SessionHandler.php reads
 *   `$_SERVER['HTTP_CART_TOKEN']`, so a batch's sub-requests share the outer request's session);
 *   without a valid token, a new guest session;
 * - the nonce check, before anything else runs: a write (POST, PUT, PATCH, DELETE) needs the
 *   `Nonce` header unless the request carries a valid Cart-Token (requires_nonce); the checkout
 *   route needs it always (Checkout::requires_nonce returns true). Missing: 401
 *   `woocommerce_rest_missing_nonce`; not verifying (nonces.ts): 403 `woocommerce_rest_invalid_nonce`.
 *   Only the `Nonce` header is read (check_nonce), never `X-WC-Store-API-Nonce`;
 * - every answer, errors included, carries `Nonce` (a fresh wp_create_nonce( 'wc_store_api' )),
 *   `Nonce-Timestamp`, `User-ID` and `Cart-Token` (add_response_headers).
 */
import type { CartSession, CartSessions } from './carts.js';
import type { Nonces } from './nonces.js';
import type { RouteContext } from './router.js';
import { WpError } from './wp-error.js';

export type NonceRule = 'writes-without-token' | 'always';

const WRITES = ['POST', 'PUT', 'PATCH', 'DELETE'];

export function header(ctx: Pick<RouteContext, 'headers'>, name: string): string | undefined {
  const value = ctx.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

export class StoreSessions {
  constructor(
    private readonly sessions: CartSessions,
    private readonly nonces: Nonces,
    private readonly nowSeconds: () => number,
  ) {}

  /** The request's session (a batch's, when given) and whether its own Cart-Token is valid. */
  async load(ctx: RouteContext): Promise<{ session: CartSession; hasToken: boolean }> {
    const own = await this.sessions.load(header(ctx, 'cart-token'));
    return { session: ctx.session ?? own.session, hasToken: own.hasToken };
  }

  /** AbstractCartRoute::check_nonce, when the route's rule asks for it. */
  checkNonce(ctx: RouteContext, hasToken: boolean, rule: NonceRule): void {
    const required = rule === 'always' || (WRITES.includes(ctx.method) && !hasToken);
    if (!required) return;
    // An empty header counts as none: check_nonce only reads a truthy get_header( 'Nonce' ).
    const nonce = header(ctx, 'nonce');
    if (!nonce) throw new WpError(401, 'woocommerce_rest_missing_nonce', 'Missing the Nonce header. This endpoint requires a valid nonce.');
    if (!this.nonces.verify(nonce)) throw new WpError(403, 'woocommerce_rest_invalid_nonce', 'Nonce is invalid.');
  }

  /** AbstractCartRoute::add_response_headers. */
  async headers(session: CartSession): Promise<Record<string, string>> {
    return {
      Nonce: this.nonces.create(),
      'Nonce-Timestamp': String(this.nowSeconds()),
      'User-ID': '0',
      'Cart-Token': await this.sessions.token(session),
    };
  }

  /** Batch::get_response: the batch's own answer carries the nonce headers, no Cart-Token. */
  batchHeaders(): Record<string, string> {
    const nonce = this.nonces.create();
    return { Nonce: nonce, 'X-WC-Store-API-Nonce': nonce, 'Nonce-Timestamp': String(this.nowSeconds()), 'User-ID': '0' };
  }
}
