/**
 * store_charged: `POST /wc/store/v1/checkout` of the session's own cart, the buyer's credential
 * as `payment_data` for the store's payment gateway, read as the Store API answers it
 * (src/StoreApi/Routes/V1/Checkout.php, Utilities/CheckoutTrait.php, Legacy.php):
 * - the route always wants the `Nonce` header (Checkout::requires_nonce), Cart-Token or not: the
 *   one the cart's last answer carried is sent; a refused one (401 woocommerce_rest_missing_nonce,
 *   403 woocommerce_rest_invalid_nonce: nothing done) is replaced by the refusal's own `Nonce`
 *   header, once;
 * - the checkout's reference goes in `extensions` for the must-use plugin, which writes it on the
 *   order before the gateway runs (woocommerce_store_api_checkout_update_order_from_request), so
 *   an order whose answer was lost can be found; the answer's `extensions` say whether it did;
 * - the status follows the gateway: 200 success, 202 pending, 400 failure. A success is an order
 *   paid only when the order says so (processing, completed); a bank transfer puts it on hold.
 * - the buyer must act when the order is still pending and the gateway redirects (Legacy.php
 *   passes its `redirect` as `redirect_url` whatever its `result`): to a page of its own (the
 *   order's payment page for 3-D Secure, a bank), or, for gateways that confirm in the buyer's
 *   browser, to a fragment for their own script (WooCommerce Stripe:
 *   `#wc-stripe-confirm-pi:{order_id}:{client_secret}:{nonce}`, class-wc-stripe-upe-payment-gateway.php
 *   process_payment). Such a fragment is no page and carries the payment's client secret: the
 *   buyer is sent to the order's payment page (`payment_url`, WC_Order::get_checkout_payment_url)
 *   instead, where the gateway runs its challenge. The order-received page is no challenge.
 */
import type { PlaceOrderResult } from '../contract.js';
import type { WcAddress } from './addresses.js';
import type { CartSession } from './cart-handle.js';
import { isWpError, type WooHttp, type WooResponse } from './http.js';
import { expectShape, StoreCheckout } from './wc-shapes.js';

/** The Store API namespace the must-use plugin registers for the checkout (proto-reference.php). */
const EXTENSION_NAMESPACE = 'proto-gateway';

type Rejected = Extract<PlaceOrderResult, { status: 'rejected' }>;

export interface CheckoutBody {
  billing_address: WcAddress & { email: string };
  shipping_address: WcAddress;
  payment_method: string;
  payment_data: Array<{ key: string; value: string }>;
  reference: string;
  handlerId: string;
}

export type CheckoutOutcome =
  | { kind: 'rejected'; rejection: Rejected }
  | {
      /**
       * paid: the store charged it; waiting: the store waits for the money (pending, on hold);
       * buyer_action: the buyer must approve at `url`.
       */
      kind: 'paid' | 'waiting' | 'buyer_action';
      orderId: string;
      orderKey: string;
      url: string;
      /** The must-use plugin wrote the reference on the order. */
      referenced: boolean;
    };

const NONCE_REFUSED = ['woocommerce_rest_missing_nonce', 'woocommerce_rest_invalid_nonce'];
const PAYMENT_METHOD_REFUSED = ['woocommerce_rest_checkout_missing_payment_method', 'woocommerce_rest_checkout_payment_method_disabled'];

const nonceRefused = (response: WooResponse) =>
  (response.status === 401 || response.status === 403) && isWpError(response.body) && NONCE_REFUSED.includes(response.body.code);

/** Sends the checkout with the session's nonce; once more with the store's fresh one when it refuses that. */
export async function checkout(http: WooHttp, session: CartSession, body: CheckoutBody, signal?: AbortSignal): Promise<CheckoutOutcome> {
  const { reference, handlerId, ...fields } = body;
  const request = { ...fields, extensions: { [EXTENSION_NAMESPACE]: { reference, payment_handler: handlerId } } };
  const send = (nonce: string | undefined) =>
    http.store('POST', '/checkout', { token: session.token, ...(nonce && { nonce }), body: request }, signal);
  let response = await send(session.nonce);
  if (nonceRefused(response) && response.headers.nonce && response.headers.nonce !== session.nonce) {
    response = await send(response.headers.nonce);
  }
  return readAnswer(response, reference);
}

function readAnswer(response: WooResponse, reference: string): CheckoutOutcome {
  if (response.status !== 200 && response.status !== 202) return { kind: 'rejected', rejection: refusal(response) };
  const placed = expectShape(StoreCheckout, response.body, 'POST wc/store/v1/checkout');
  const echoed = (placed.extensions?.[EXTENSION_NAMESPACE] as { reference?: unknown } | undefined)?.reference;
  const common = {
    orderId: String(placed.order_id),
    orderKey: placed.order_key,
    url: placed.payment_result.redirect_url,
    referenced: echoed === reference,
  };
  if (placed.status === 'processing' || placed.status === 'completed') return { kind: 'paid', ...common };
  const answered = placed.payment_result.payment_status;
  const needsBuyer =
    (answered === 'success' || answered === 'pending') && placed.status === 'pending' && common.url !== '' && !isReceivedPage(common.url);
  return { kind: needsBuyer ? 'buyer_action' : 'waiting', ...common };
}

/** The order-received ("thank you") page a gateway sends the buyer to once it has nothing more to ask. */
const isReceivedPage = (url: string) => /\/order-received\/\d+\/?(?:\?|$)/.test(url.split('#')[0]!) && !url.includes('#');

/** A page the buyer can open: an absolute http(s) URL without a fragment for a gateway's script. */
export const isBuyerPage = (url: string) => /^https?:\/\//i.test(url) && !url.includes('#');

/** What a refused checkout means for the placement. */
function refusal(response: WooResponse): Rejected {
  const { status, body } = response;
  if (!isWpError(body)) {
    // A gateway answering `failure` without throwing: 400 with the checkout (CheckoutTrait::prepare_item_for_response).
    const result = (body as { payment_result?: { payment_status?: unknown } } | null)?.payment_result;
    if (status === 400 && result?.payment_status === 'failure')
      return { status: 'rejected', reason: 'payment_declined', detail: 'The store’s payment gateway declined the payment.' };
    return { status: 'rejected', reason: 'incomplete', detail: `the store's checkout answered ${status}` };
  }
  if (body.code === 'woocommerce_rest_checkout_process_payment_error')
    return { status: 'rejected', reason: 'payment_declined', detail: body.message };
  if (PAYMENT_METHOD_REFUSED.includes(body.code)) {
    return {
      status: 'rejected',
      reason: 'incomplete',
      detail: `the store's payment method for store_charged is not available: ${body.message}`,
    };
  }
  if (status === 409 && /coupon/.test(body.code)) return { status: 'rejected', reason: 'price_changed', detail: body.message };
  // 409: the cart's stock moved (CartController::validate_cart); 403: no stock left to hold (ReserveStock).
  if (status === 409 || body.code === 'woocommerce_product_not_enough_stock')
    return { status: 'rejected', reason: 'out_of_stock', detail: body.message };
  return { status: 'rejected', reason: 'incomplete', detail: `${body.code}: ${body.message}` };
}
