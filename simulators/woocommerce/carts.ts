/**
 * Store API cart sessions, kept by Cart-Token as plugins/woocommerce/src/StoreApi/Routes/V1/
 * AbstractCartRoute.php does: the token is a JWT (HS256 with the site's salt) holding the guest
 * session's customer id, valid 48 hours; a request with a valid token reads that session (an
 * expired session is an empty cart), a request without one starts a new session and gets a new
 * token. Writes need the token or a valid `Nonce` (store-session.ts); the session also remembers
 * the order its checkout placed (`store_api_draft_order`, DraftOrderTrait).
 */
import { createHash, randomBytes } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import type { Address, BillingAddress } from './model.js';
import { emptyAddress, emptyBilling } from './orders.js';
import type { CartLine } from './shapes/store-cart.js';

const TOKEN_TTL_SECONDS = 2 * 86_400;

export interface CartSession {
  customerId: string;
  lines: CartLine[];
  /** Applied codes in the order applied (lower-cased). */
  coupons: string[];
  shipping: Address;
  billing: BillingAddress;
  chosenRates: Record<number, string>;
  expiresAt: number;
  /** wc()->session 'store_api_draft_order': the order the last checkout of this cart created (0: none). */
  draftOrderId: number;
}

export class CartSessions {
  private readonly sessions = new Map<string, CartSession>();
  private readonly salt = new TextEncoder().encode(randomBytes(32).toString('hex'));

  constructor(private readonly nowMs: () => number) {}

  private create(customerId = `t_${randomBytes(15).toString('hex')}`): CartSession {
    const session: CartSession = {
      customerId,
      lines: [],
      coupons: [],
      shipping: emptyAddress(),
      billing: emptyBilling(),
      chosenRates: {},
      expiresAt: this.nowMs() + TOKEN_TTL_SECONDS * 1000,
      draftOrderId: 0,
    };
    this.sessions.set(customerId, session);
    return session;
  }

  /** The session a request names, and whether it named one with a valid token. */
  async load(token: string | undefined): Promise<{ session: CartSession; hasToken: boolean }> {
    if (token) {
      try {
        const { payload } = await jwtVerify(token, this.salt, { currentDate: new Date(this.nowMs()) });
        const customerId = String(payload.user_id);
        const existing = this.sessions.get(customerId);
        const session = existing && existing.expiresAt > this.nowMs() ? existing : this.create(customerId);
        return { session, hasToken: true };
      } catch {
        // Not a token of this store (or expired): a new guest session, as WooCommerce does.
      }
    }
    return { session: this.create(), hasToken: false };
  }

  async token(session: CartSession): Promise<string> {
    const now = Math.floor(this.nowMs() / 1000);
    return new SignJWT({ user_id: session.customerId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer('wc/store/v1')
      .setExpirationTime(now + TOKEN_TTL_SECONDS)
      .sign(this.salt);
  }

  /** Drops a session as the store's session cleanup would: its token then reads an empty cart. */
  expire(customerId: string): void {
    this.sessions.delete(customerId);
  }

  customerIdOf(token: string): string | undefined {
    const payload = token.split('.')[1];
    if (!payload) return undefined;
    return (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { user_id?: string }).user_id;
  }

  /** WC_Cart::empty_cart, as a gateway calls it once paid: the draft order id stays in the session. */
  empty(session: CartSession): void {
    session.lines = [];
    session.coupons = [];
    session.chosenRates = {};
  }
}

/** WC_Cart::generate_cart_id: md5 of product id, variation id and the chosen attributes. */
export function cartItemKey(productId: number, variationId: number, variation: Array<{ attribute: string; value: string }>): string {
  const attributes = variation.map((v) => `${v.attribute}=${v.value}`).join('&');
  return createHash('md5').update(`${productId}_${variationId}_${attributes}`).digest('hex');
}
