/**
 * `POST /wc/store/v1/checkout` as src/StoreApi/Routes/V1/Checkout.php runs it
 * (get_route_post_response), with CheckoutTrait, DraftOrderTrait and OrderController:
 * 1. WordPress validates the arguments first: `billing_address` is required (CheckoutSchema),
 *    each posted address is checked as AbstractAddressSchema does (400 `rest_invalid_param`);
 * 2. the nonce, always (Checkout::requires_nonce), then the cart: stock (409, the first problem's
 *    code, e.g. `woocommerce_rest_product_out_of_stock`, with the cart) and coupons still valid
 *    (409 `woocommerce_rest_cart_coupon_error`, the coupon removed) (CartController::validate_cart);
 * 3. the customer takes the posted addresses (the billing one for shipping when none is posted);
 * 4. the order: the session's draft (`store_api_draft_order`) when it is still a checkout draft,
 *    or still needs payment and the cart hash is unchanged (a retry of a failed or unfinished
 *    payment pays the same order); otherwise a new order (status checkout-draft, created_via
 *    store-api; an empty cart is 400 `woocommerce_rest_cart_empty`). Its stock is held for
 *    woocommerce_hold_stock_minutes (ReserveStock). The order exists from here on, whatever fails next;
 * 5. the payment method (400 `woocommerce_rest_checkout_missing_payment_method` /
 *    `..._payment_method_disabled`), the email (400 `woocommerce_rest_missing_email_address`),
 *    a shipping rate for every package (400 `woocommerce_rest_invalid_shipping_option`);
 *    With the gateway's must-use plugin installed (adapters/woocommerce/mu-plugin/proto-reference.php,
 *    `referenceSnippet`), woocommerce_store_api_checkout_update_order_from_request, fired by
 *    CheckoutTrait::update_order_from_request before validation and payment, writes the reference
 *    the request's `extensions['proto-gateway']` carries on the order, saved there and then; the
 *    answer's `extensions` echo it (the extension's data_callback);
 * 6. `woocommerce_store_api_checkout_order_processed` fires; the order goes to pending and the
 *    gateway runs (payment-page.ts), or, with nothing to pay, payment_complete. The answer's
 *    status follows payment_status: success 200, pending 202 (CheckoutTrait::prepare_item_for_response).
 */
import { createHash } from 'node:crypto';
import type { CartSession, CartSessions } from './carts.js';
import type { Address, BillingAddress, SimOrder } from './model.js';
import { emptyAddress, emptyBilling, mergeAddress, type NewOrder, type OrderBook } from './orders.js';
import { orderPaymentResult, orderReceivedUrl, type PaymentResult } from './payment-page.js';
import { addressErrors, sanitizeAddress, validatePosted } from './address-validation.js';
import type { RouteContext, RouteResult, Router } from './router.js';
import type { WooStore } from './store.js';
import type { StoreCart } from './store-cart.js';
import type { StoreApi } from './store-api.js';
import { missingParam, WpError } from './wp-error.js';

const HTTP_STATUS = { success: 200, pending: 202, failure: 400 } as const;

/** WC_Cart::get_cart_hash: the cart's contents and total. */
function cartHash(session: CartSession, total: number): string {
  return createHash('md5')
    .update(JSON.stringify(session.lines.map((l) => [l.key, l.id, l.quantity])) + String(total))
    .digest('hex');
}

export class StoreCheckout {
  constructor(
    private readonly store: WooStore,
    private readonly cart: StoreCart,
    private readonly orders: OrderBook,
    private readonly sessions: CartSessions,
    private readonly packagesByClass: () => boolean,
    private readonly referenceSnippet: () => boolean = () => false,
  ) {}

  register(api: StoreApi, router: Router): void {
    api.route(router, 'POST', '/checkout', 'always', (session, ctx) => this.checkout(session, ctx), validateArguments);
  }

  private async checkout(session: CartSession, ctx: RouteContext): Promise<RouteResult> {
    const body = ctx.body;
    const problems = this.cart.stockErrors(session);
    if (problems.length) {
      const [first, ...more] = problems;
      throw new WpError(409, first!.code, first!.message, {
        ...(more.length && { additional_errors: more.map((p) => ({ code: p.code, message: p.message, data: null })) }),
        cart: this.cart.view(session),
      });
    }
    for (const coupon of this.cart.coupons(session)) {
      const problem = this.cart.couponProblem(session, coupon);
      if (!problem) continue;
      session.coupons = session.coupons.filter((c) => c !== coupon.code);
      this.cart.conflict(session, 'cart_coupon_error', `The "${coupon.code}" coupon has been removed from your cart: ${problem}`);
    }
    session.billing = sanitizeAddress(mergeAddress<BillingAddress>(session.billing, body.billing_address));
    session.shipping = sanitizeAddress(mergeAddress<Address>(session.shipping, body.shipping_address ?? body.billing_address));
    const order = this.draftOrder(session);
    order.customerNote = typeof body.customer_note === 'string' ? body.customer_note : '';
    const needsPayment = order.total > 0;
    const gateway = this.paymentMethod(body.payment_method, needsPayment);
    if (gateway) {
      order.paymentMethod = gateway.id;
      order.paymentMethodTitle = gateway.title;
    }
    const extensions = this.referenceSnippet() ? { 'proto-gateway': { reference: this.keepReference(order, body.extensions) } } : {};
    this.validateBeforePayment(session, order);
    const result = needsPayment ? this.pay(order, gateway!, body.payment_data) : this.complete(order);
    if (result.declined) throw new WpError(400, 'woocommerce_rest_checkout_process_payment_error', result.declined);
    if (result.emptiesCart) this.sessions.empty(session);
    return { status: HTTP_STATUS[result.status], body: { ...checkoutShape(order, result), extensions } };
  }

  /** The must-use plugin's woocommerce_store_api_checkout_update_order_from_request: the reference written, or null. */
  private keepReference(order: SimOrder, extensions: unknown): string | null {
    const data = (extensions as Record<string, { reference?: unknown; payment_handler?: unknown }> | undefined)?.['proto-gateway'];
    if (typeof data?.reference !== 'string' || !data.reference) return null;
    const meta = [{ key: '_proto_reference', value: data.reference }];
    if (typeof data.payment_handler === 'string' && data.payment_handler)
      meta.push({ key: '_proto_payment_handler', value: data.payment_handler });
    this.orders.update(order, { meta });
    return data.reference;
  }

  /** DraftOrderTrait::get_draft_order / is_valid_draft_order, then OrderController create or update. */
  private draftOrder(session: CartSession): SimOrder {
    if (!session.lines.length) throw new WpError(400, 'woocommerce_rest_cart_empty', 'Cannot create order from empty cart.');
    const priced = this.cart.price(session);
    const hash = cartHash(session, priced.totals.total);
    const input: NewOrder = {
      lines: session.lines.map((l) => {
        const found = this.store.purchasable(l.id)!;
        return { productId: found.product.id, variationId: found.variation?.id ?? 0, quantity: l.quantity, variation: l.variation };
      }),
      couponCodes: [...session.coupons],
      billing: { ...session.billing },
      shipping: { ...session.shipping },
      shippingLines: 'from-rates',
      chosenRates: session.chosenRates,
      packagesByClass: this.packagesByClass(),
      status: 'checkout-draft',
      createdVia: 'store-api',
      paymentMethod: '',
      paymentMethodTitle: '',
      transactionId: '',
      customerNote: '',
      meta: [],
      cartHash: hash,
    };
    const previous = this.store.orders.get(session.draftOrderId);
    const reusable =
      previous &&
      (previous.status === 'checkout-draft' ||
        (['pending', 'failed'].includes(previous.status) && previous.total > 0 && previous.cartHash === hash));
    const order = reusable ? previous : this.orders.create(input);
    if (reusable) this.orders.refresh(order, input);
    session.draftOrderId = order.id;
    this.orders.reserveStock(order, this.store.settings.holdStockMinutes);
    return order;
  }

  /** Checkout::get_request_payment_method. */
  private paymentMethod(value: unknown, needsPayment: boolean) {
    const id = typeof value === 'string' ? value.trim() : '';
    if (!id) {
      if (needsPayment) throw new WpError(400, 'woocommerce_rest_checkout_missing_payment_method', 'No payment method provided.');
      return undefined;
    }
    const gateway = this.store.gateways.find((g) => g.id === id);
    if (!gateway) {
      throw new WpError(
        400,
        'woocommerce_rest_checkout_payment_method_disabled',
        `${id} is not available for this order—please choose a different payment method`,
      );
    }
    return gateway;
  }

  /** OrderController::validate_order_before_payment: email, then a rate for every package. */
  private validateBeforePayment(session: CartSession, order: SimOrder): void {
    const email = order.billing.email;
    if (!email) throw new WpError(400, 'woocommerce_rest_missing_email_address', 'A valid email address is required');
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) {
      throw new WpError(
        400,
        'woocommerce_rest_invalid_email_address',
        `The provided email address (${email}) is not valid—please provide a valid email address`,
      );
    }
    const priced = this.cart.price(session);
    if (priced.needsShipping && (!priced.packages.length || priced.packages.some((p) => !p.chosen))) {
      throw new WpError(400, 'woocommerce_rest_invalid_shipping_option', 'Sorry, this order requires a shipping option.');
    }
  }

  /** CheckoutTrait::process_payment: pending first ("Transition the order to pending before making payment"), then the gateway. */
  private pay(order: SimOrder, gateway: NonNullable<ReturnType<StoreCheckout['paymentMethod']>>, data: unknown): PaymentResult {
    if (order.status !== 'pending') this.orders.setStatus(order, 'pending');
    const paymentData = Array.isArray(data) ? (data as Array<{ key: string; value: unknown }>) : [];
    return orderPaymentResult(this.store, this.orders, order, gateway, paymentData);
  }

  /** CheckoutTrait::process_without_payment: pending, then payment_complete; success, to the order-received page. */
  private complete(order: SimOrder): PaymentResult {
    this.orders.setStatus(order, 'pending');
    this.orders.markPaid(order, {});
    return { status: 'success', details: [], redirectUrl: orderReceivedUrl(this.store, order), emptiesCart: true };
  }
}

/** CheckoutSchema::get_checkout_response. */
function checkoutShape(order: SimOrder, result: PaymentResult) {
  return {
    order_id: order.id,
    status: order.status,
    order_key: order.orderKey,
    order_number: String(order.id),
    customer_note: order.customerNote,
    customer_id: 0,
    billing_address: order.billing,
    shipping_address: order.shipping,
    payment_method: order.paymentMethod,
    payment_result: { payment_status: result.status, payment_details: result.details, redirect_url: result.redirectUrl },
    additional_fields: {},
    extensions: {},
  };
}

/** WordPress's argument validation of CheckoutSchema: billing_address required, posted addresses checked. */
function validateArguments(ctx: RouteContext): void {
  if (ctx.body.billing_address === undefined || ctx.body.billing_address === null) throw missingParam('billing_address');
  const posted = (['billing_address', 'shipping_address'] as const).flatMap((param) => {
    const given = ctx.body[param];
    if (given === undefined) return [];
    const base = param === 'billing_address' ? emptyBilling() : emptyAddress();
    const address = sanitizeAddress(mergeAddress<Address>(base, given));
    return addressErrors(address).length ? [{ param, address }] : [];
  });
  validatePosted(posted);
}
