/**
 * The store's own cart (Store API), addressed by its Cart-Token (the quote's handle), brought to
 * exactly the state a quote request describes in one batch call (`POST /wc/store/v1/batch`, up
 * to 25 requests each, the Cart-Token on the batch itself and on each sub-request): remove every
 * item and coupon, set the customer's addresses, add the
 * lines, apply the codes in order, select the requested rates, then read the cart back. A cart
 * without a token starts with `GET /cart`; a token the store no longer accepts (expired: writes
 * answer woocommerce_rest_missing_nonce) is replaced the same way. The sub-requests carry the
 * Cart-Token and deliberately no nonce: with one, a write to an expired cart would go through
 * into a new session whose token the batch's answer does not name. Every answer's `Nonce`
 * (AbstractCartRoute::add_response_headers, Batch::get_response) is kept for the checkout.
 */
import { BackendError, InvalidAnswerError } from '../contract.js';
import type { WcAddress } from './addresses.js';
import { isWpError, type WooHttp, type WpErrorBody } from './http.js';
import { expectShape, StoreBatch, StoreCart } from './wc-shapes.js';

const BATCH_LIMIT = 25;
/** An intermediate step's successful answer, trimmed: only its status and errors are read. */
const TRIMMED = '?_fields=items_count';

export interface CartItemRequest {
  id: number;
  quantity: number;
  variation: Array<{ attribute: string; value: string }>;
}

/** An address of the cart's customer: every field, always (addresses.ts); the billing one with the buyer's email. */
export type CartAddress = WcAddress & { email?: string };

export interface CartPlan {
  items: CartItemRequest[];
  codes: string[];
  shipping: CartAddress;
  billing: CartAddress;
  rates: Array<{ packageId: number | string; rateId: string }>;
}

export type Step =
  | { kind: 'item'; index: number }
  | { kind: 'coupon'; index: number }
  | { kind: 'rate'; index: number }
  | { kind: 'address' }
  | { kind: 'other' };

export interface CartOutcome {
  token: string;
  /** The `Nonce` the store's last answer carried (the checkout needs one). */
  nonce?: string;
  cart: StoreCart;
  /** What each item, coupon and rate step answered: undefined = accepted, else the store's error. */
  errors: Array<{ step: Step; error: WpErrorBody }>;
}

interface SubRequest {
  step: Step;
  method: 'POST' | 'DELETE';
  path: string;
  body?: Record<string, unknown>;
}

export class StoreCartClient {
  constructor(private readonly http: WooHttp) {}

  /** A fresh cart session: its token, nonce and (empty) cart. */
  async open(signal?: AbortSignal): Promise<{ token: string; nonce?: string; cart: StoreCart }> {
    const response = await this.http.store('GET', '/cart', {}, signal);
    const token = response.headers['cart-token'];
    if (response.status !== 200 || !token)
      throw new InvalidAnswerError(`GET wc/store/v1/cart answered ${response.status} without a Cart-Token`);
    const nonce = response.headers.nonce;
    return { token, ...(nonce && { nonce }), cart: expectShape(StoreCart, response.body, 'GET wc/store/v1/cart') };
  }

  private plan(plan: CartPlan): SubRequest[] {
    return [
      { step: { kind: 'other' }, method: 'DELETE', path: '/cart/items' },
      { step: { kind: 'other' }, method: 'DELETE', path: '/cart/coupons' },
      {
        step: { kind: 'address' },
        method: 'POST',
        path: '/cart/update-customer',
        body: { shipping_address: plan.shipping, billing_address: plan.billing },
      },
      ...plan.items.map((item, index): SubRequest => ({
        step: { kind: 'item', index },
        method: 'POST',
        path: '/cart/add-item',
        body: { ...item },
      })),
      ...plan.codes.map((code, index): SubRequest => ({
        step: { kind: 'coupon', index },
        method: 'POST',
        path: '/cart/apply-coupon',
        body: { code },
      })),
      ...plan.rates.map((r, index): SubRequest => ({
        step: { kind: 'rate', index },
        method: 'POST',
        path: '/cart/select-shipping-rate',
        body: { package_id: r.packageId, rate_id: r.rateId },
      })),
      // A write that changes nothing answers the whole cart: the state after every step above.
      { step: { kind: 'other' }, method: 'POST', path: '/cart/update-customer', body: {} },
    ];
  }

  private async run(
    token: string,
    requests: SubRequest[],
    signal?: AbortSignal,
  ): Promise<{ expired: boolean; outcome?: Omit<CartOutcome, 'token'> }> {
    const errors: CartOutcome['errors'] = [];
    let last: unknown;
    let nonce: string | undefined;
    const final = requests.at(-1);
    for (let start = 0; start < requests.length; start += BATCH_LIMIT) {
      const chunk = requests.slice(start, start + BATCH_LIMIT);
      const response = await this.http.store(
        'POST',
        '/batch',
        {
          // The store loads one cart session per HTTP request, from that request's Cart-Token
          // (src/StoreApi/SessionHandler.php): the outer request's header picks the cart; each
          // sub-request's own header spares it the nonce check (AbstractCartRoute::has_cart_token).
          token,
          body: {
            requests: chunk.map((r) => ({
              method: r.method,
              // Only the final answer's cart is read: the others come back trimmed to one small
              // field (`_fields`, applied per sub-request by serve_batch_request_v1's
              // rest_post_dispatch; errors stay whole), about 15 KB less to encode, send and parse.
              path: `/wc/store/v1${r.path}${r === final ? '' : TRIMMED}`,
              headers: { 'Cart-Token': token },
              ...(r.body && { body: r.body }),
            })),
          },
        },
        signal,
      );
      if (response.status !== 207 && response.status !== 200)
        throw new InvalidAnswerError(`POST wc/store/v1/batch answered ${response.status}`);
      nonce = response.headers.nonce ?? nonce;
      const { responses } = expectShape(StoreBatch, response.body, 'POST wc/store/v1/batch');
      if (responses.length !== chunk.length)
        throw new InvalidAnswerError('POST wc/store/v1/batch answered a different number of responses');
      for (const [i, sub] of responses.entries()) {
        if (sub.status === 401 && isWpError(sub.body) && sub.body.code === 'woocommerce_rest_missing_nonce') return { expired: true };
        if (sub.status >= 400 && isWpError(sub.body)) errors.push({ step: chunk[i]!.step, error: sub.body });
        else if (sub.status >= 500) throw new BackendError(`a cart step (${chunk[i]!.path}) answered ${sub.status}`, true);
      }
      last = responses.at(-1)!.body;
    }
    const cart = expectShape(StoreCart, last, 'POST wc/store/v1/cart/update-customer');
    return { expired: false, outcome: { ...(nonce && { nonce }), cart, errors } };
  }

  /** Brings the cart behind `token` (or a new one) to `plan`; returns the token (and nonce) to keep. */
  async apply(token: string | undefined, plan: CartPlan, signal?: AbortSignal): Promise<CartOutcome> {
    const requests = this.plan(plan);
    let current = token ?? (await this.open(signal)).token;
    let result = await this.run(current, requests, signal);
    if (result.expired) {
      current = (await this.open(signal)).token;
      result = await this.run(current, requests, signal);
      if (result.expired) throw new InvalidAnswerError('the store refuses the cart token it just issued');
    }
    return { token: current, ...result.outcome! };
  }
}
