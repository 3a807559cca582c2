/**
 * The Store API (`wc/store/v1`) cart and checkout routes, with the validation and error codes
 * of plugins/woocommerce/src/StoreApi/Utilities/CartController.php (add_to_cart,
 * parse_variation_data, validate_add_to_cart, apply_coupon), the Cart* routes and
 * CheckoutTrait (payment_method, payment_data, woocommerce_rest_checkout_process_payment_error).
 */
import type { CartSession, CartSessions } from './carts.js';
import { cartItemKey } from './carts.js';
import type { Address, BillingAddress, SimCoupon } from './model.js';
import { mergeAddress, type OrderBook } from './orders.js';
import { sanitizeAddress, validatePosted } from './address-validation.js';
import { couponFitsCart, price, pricingItem, type Priced, type PricingItem } from './pricing.js';
import type { RouteContext, RouteResult, Router } from './router.js';
import { orderPaymentResult } from './payment-page.js';
import { cartShape, type CartLine } from './shapes/store-cart.js';
import { decimal } from './shapes/format.js';
import type { WooStore } from './store.js';
import { filterResponseFields } from './response-fields.js';
import { WpError } from './wp-error.js';
import { text } from '../request-text.js';

export interface StoreApiOptions {
  packagesByClass: () => boolean;
}

const cartError = (status: number, code: string, message: string) => new WpError(status, `woocommerce_rest_${code}`, message);
const couponError = (message: string) => cartError(400, 'cart_coupon_error', message);

export class StoreApi {
  constructor(
    private readonly store: WooStore,
    private readonly sessions: CartSessions,
    private readonly orders: OrderBook,
    private readonly options: StoreApiOptions,
  ) {}

  private items(session: CartSession): PricingItem[] {
    return session.lines.map((l) => pricingItem(this.store, l.key, l.id, l.quantity)!);
  }

  private coupons(session: CartSession): SimCoupon[] {
    return session.coupons.map((code) => this.store.couponByCode(code)!).filter(Boolean);
  }

  private price(session: CartSession): Priced {
    return price(this.store, {
      items: this.items(session),
      coupons: this.coupons(session),
      shipping: session.shipping.country ? session.shipping : null,
      billing: session.billing.country ? session.billing : null,
      chosenRates: session.chosenRates,
      packagesByClass: this.options.packagesByClass(),
    });
  }

  private stockErrors(session: CartSession): Array<{ code: string; message: string }> {
    return session.lines.flatMap((line) => {
      const found = this.store.purchasable(line.id)!;
      const status = this.store.stockStatus(found.item);
      if (status === 'outofstock') {
        return [
          {
            code: 'woocommerce_rest_product_out_of_stock',
            message: `${found.product.name} is out of stock and cannot be purchased. Please remove it from your cart.`,
          },
        ];
      }
      if (found.item.manageStock && found.item.backorders === 'no' && (found.item.stockQuantity ?? 0) < line.quantity) {
        return [
          {
            code: 'woocommerce_rest_product_partially_out_of_stock',
            message: `There is not enough ${found.product.name} in stock. Please reduce the quantity in your cart.`,
          },
        ];
      }
      return [];
    });
  }

  private async respond(session: CartSession, status = 200): Promise<RouteResult> {
    const priced = this.price(session);
    // The chosen rate of each package is remembered, as wc()->session chosen_shipping_methods.
    for (const pkg of priced.packages) if (pkg.chosen) session.chosenRates[pkg.packageId] = pkg.chosen.rateId;
    const body = cartShape(this.store, {
      lines: session.lines,
      priced,
      shipping: session.shipping,
      billing: session.billing,
      errors: this.stockErrors(session),
    });
    return { status, body, headers: await this.sessionHeaders(session) };
  }

  private async sessionHeaders(session: CartSession): Promise<Record<string, string>> {
    return {
      'Cart-Token': await this.sessions.token(session),
      Nonce: this.sessions.nonce(session),
      'Nonce-Timestamp': String(Math.floor(this.store.now().getTime() / 1000)),
      'User-ID': '0',
    };
  }

  /**
   * Loads the session; writes without a cart token need the session's nonce. The session is the
   * one of the HTTP request's own Cart-Token header (src/StoreApi/SessionHandler.php reads
   * `$_SERVER['HTTP_CART_TOKEN']` once per request), so a batch's sub-requests all share the outer
   * request's session whatever their own headers say; the nonce check
   * (AbstractCartRoute::requires_nonce / has_cart_token) reads each sub-request's own headers.
   */
  private async session(ctx: RouteContext, outer?: CartSession): Promise<CartSession> {
    const header = (name: string) => {
      const value = ctx.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    const own = await this.sessions.load(header('cart-token'));
    const session = outer ?? own.session;
    if (ctx.method !== 'GET' && !own.hasToken) {
      const nonce = header('nonce') ?? header('x-wc-store-api-nonce');
      if (!nonce)
        throw new WpError(401, 'woocommerce_rest_missing_nonce', 'Missing the Nonce header. This endpoint requires a valid nonce.');
      if (nonce !== this.sessions.nonce(session)) throw new WpError(403, 'woocommerce_rest_invalid_nonce', 'Nonce is invalid.');
    }
    return session;
  }

  /** 409s carry the current cart so the client can resync (AbstractCartRoute::get_route_error_response). */
  private async conflict(session: CartSession, code: string, message: string): Promise<never> {
    const cart = (await this.respond(session)).body;
    throw new WpError(409, `woocommerce_rest_${code}`, message, { cart });
  }

  register(router: Router): void {
    const route = (method: string, path: string, handler: (session: CartSession, ctx: RouteContext) => Promise<RouteResult>) =>
      router.add(method, `/wc/store/v1${path}`, 'public', async (ctx) => handler(await this.session(ctx, ctx.session), ctx));
    route('GET', '/cart', (session) => this.respond(session));
    route('POST', '/cart/add-item', (session, ctx) => this.addItem(session, ctx.body));
    route('POST', '/cart/update-item', (session, ctx) => this.updateItem(session, ctx.body));
    route('POST', '/cart/remove-item', (session, ctx) => this.removeItem(session, ctx.body));
    route('POST', '/cart/apply-coupon', (session, ctx) => this.applyCoupon(session, ctx.body));
    route('POST', '/cart/remove-coupon', (session, ctx) => this.removeCoupon(session, ctx.body));
    route('POST', '/cart/update-customer', (session, ctx) => this.updateCustomer(session, ctx.body));
    route('POST', '/cart/select-shipping-rate', (session, ctx) => this.selectRate(session, ctx.body));
    route('POST', '/checkout', (session, ctx) => this.checkout(session, ctx.body));
    route('DELETE', '/cart/items', async (session) => {
      session.lines = [];
      return { body: [], headers: await this.sessionHeaders(session) };
    });
    route('DELETE', '/cart/coupons', async (session) => {
      session.coupons = [];
      return { body: [], headers: await this.sessionHeaders(session) };
    });
    router.add('POST', '/wc/store/v1/batch', 'public', (ctx) => this.batch(router, ctx));
  }

  /**
   * Runs up to 25 Store API requests in order, each with its own headers, and answers 207 with
   * every response (Routes/V1/Batch.php over WP_REST_Server::serve_batch_request_v1), each trimmed
   * to its own `_fields` (response-fields.ts).
   */
  private async batch(router: Router, ctx: RouteContext): Promise<RouteResult> {
    const requests = ctx.body.requests;
    if (!Array.isArray(requests))
      throw new WpError(400, 'rest_missing_callback_param', 'Missing parameter(s): requests', { params: ['requests'] });
    if (requests.length > 25)
      throw new WpError(400, 'rest_invalid_param', 'Invalid parameter(s): requests', {
        params: { requests: 'requests must contain at most 25 items.' },
      });
    for (const r of requests as Array<{ path?: unknown }>) {
      if (typeof r?.path !== 'string' || !r.path.includes('wc/store')) throw cartError(400, 'invalid_path', 'Invalid path provided.');
    }
    // The batch's session: the outer request's Cart-Token (a new guest session without one).
    const outer = ctx.headers['cart-token'];
    const { session } = await this.sessions.load(Array.isArray(outer) ? outer[0] : outer);
    const responses = [];
    for (const r of requests as Array<{
      path: string;
      method?: string;
      body?: Record<string, unknown>;
      headers?: Record<string, string>;
    }>) {
      const method = r.method ?? 'POST';
      const [route = '', search = ''] = r.path.split('?');
      const matched = router.match(method, route.replace(/\/+$/, ''));
      const headers = Object.fromEntries(Object.entries(r.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
      try {
        if (!matched.route) throw new WpError(404, 'rest_no_route', 'No route was found matching the URL and request method.');
        const query = Object.fromEntries(new URLSearchParams(search));
        const result = await matched.route.handler({
          method,
          route,
          params: matched.params,
          query,
          body: { ...query, ...(r.body ?? {}) },
          headers,
          session,
        });
        const status = result.status ?? 200;
        responses.push({ body: filterResponseFields(result.body, status, query._fields), status, headers: result.headers ?? {} });
      } catch (error) {
        if (!(error instanceof WpError)) throw error;
        responses.push({ body: error.body(), status: error.status, headers: {} });
      }
    }
    return { status: 207, body: { responses } };
  }

  private resolveVariation(
    id: number,
    variation: Array<{ attribute: string; value: string }>,
  ): { id: number; variation: CartLine['variation'] } {
    const product = this.store.products.get(id);
    const variationRecord = this.store.variations.get(id);
    const parent = variationRecord ? this.store.products.get(variationRecord.parentId)! : product;
    if (!parent || (!variationRecord && product?.type !== 'variable' && product?.type !== 'simple')) {
      throw cartError(400, 'cart_invalid_product', 'This product cannot be added to the cart.');
    }
    if (parent.type === 'simple') return { id, variation: [] };
    const given = new Map(variation.map((v) => [v.attribute.replace(/^attribute_/, ''), v.value]));
    const valueOf = (name: string) => given.get(name) ?? given.get(name.toLowerCase());
    let target = variationRecord;
    if (!target) {
      target = parent.variationIds
        .map((vid) => this.store.variations.get(vid)!)
        .find((v) => v.attributes.every((a) => a.option === '' || a.option === valueOf(a.name)));
      if (!target) throw cartError(400, 'variation_id_from_variation_data', 'No matching variation found.');
    }
    const chosen: CartLine['variation'] = [];
    const missing: string[] = [];
    for (const attribute of parent.attributes.filter((a) => a.variation)) {
      const expected = target.attributes.find((a) => a.name === attribute.name)?.option ?? '';
      const value = valueOf(attribute.name);
      if (value !== undefined && value !== expected && !(expected === '' && attribute.options.includes(value))) {
        throw cartError(
          400,
          'invalid_variation_data',
          `Invalid value posted for ${attribute.name}. Allowed values: ${attribute.options.join(', ')}`,
        );
      }
      if (value === undefined && expected === '') missing.push(attribute.name);
      chosen.push({ attribute: attribute.name, value: value ?? expected });
    }
    if (missing.length) {
      throw cartError(
        400,
        'missing_variation_data',
        `Missing variation data for variable product. ${missing.join(' and ')} ` +
          (missing.length > 1 ? 'are required fields' : 'is a required field'),
      );
    }
    return { id: target.id, variation: chosen };
  }

  private checkStock(id: number, quantity: number): void {
    const found = this.store.purchasable(id)!;
    const name = found.product.name;
    if (this.store.stockStatus(found.item) === 'outofstock') {
      throw cartError(400, 'product_out_of_stock', `You cannot add &quot;${name}&quot; to the cart because the product is out of stock.`);
    }
    if (found.item.manageStock && found.item.backorders === 'no' && (found.item.stockQuantity ?? 0) < quantity) {
      throw cartError(
        400,
        'product_partially_out_of_stock',
        `You cannot add that amount of &quot;${name}&quot; to the cart ` +
          `because there is not enough stock (${found.item.stockQuantity} remaining).`,
      );
    }
  }

  private async addItem(session: CartSession, body: Record<string, unknown>): Promise<RouteResult> {
    const id = Number(body.id);
    const quantity = Math.max(1, Math.trunc(Number(body.quantity ?? 1)));
    if (!Number.isInteger(id) || id <= 0) throw cartError(400, 'cart_invalid_product', 'This product cannot be added to the cart.');
    const requested = Array.isArray(body.variation) ? (body.variation as Array<{ attribute: string; value: string }>) : [];
    const resolved = this.resolveVariation(id, requested);
    const found = this.store.purchasable(resolved.id)!;
    const key = cartItemKey(found.product.id, found.variation?.id ?? 0, resolved.variation);
    const existing = session.lines.find((l) => l.key === key);
    const inCart = session.lines.filter((l) => l.id === resolved.id).reduce((n, l) => n + l.quantity, 0);
    this.checkStock(resolved.id, inCart + quantity);
    if (existing) existing.quantity += quantity;
    else session.lines.push({ key, id: resolved.id, quantity, variation: resolved.variation });
    return this.respond(session, 201);
  }

  private async updateItem(session: CartSession, body: Record<string, unknown>): Promise<RouteResult> {
    const line = session.lines.find((l) => l.key === body.key);
    if (!line) return this.conflict(session, 'cart_invalid_key', 'Cart item does not exist.');
    const quantity = Math.trunc(Number(body.quantity));
    const found = this.store.purchasable(line.id)!;
    if (!Number.isFinite(quantity) || quantity < 1) {
      throw new WpError(400, 'invalid_quantity', `The minimum quantity of "${found.product.name}" allowed in the cart is 1.`);
    }
    if (found.item.manageStock && found.item.backorders === 'no' && quantity > (found.item.stockQuantity ?? 0)) {
      throw new WpError(
        400,
        'invalid_quantity',
        `The maximum quantity of "${found.product.name}" allowed in the cart is ${found.item.stockQuantity}.`,
      );
    }
    line.quantity = quantity;
    return this.respond(session);
  }

  private async removeItem(session: CartSession, body: Record<string, unknown>): Promise<RouteResult> {
    const index = session.lines.findIndex((l) => l.key === body.key);
    if (index < 0) return this.conflict(session, 'cart_invalid_key', 'Cart item no longer exists or is invalid.');
    session.lines.splice(index, 1);
    return this.respond(session);
  }

  /** WC_Discounts::is_coupon_valid for this cart; the sentence the store shows, or null. */
  private couponProblem(session: CartSession, coupon: SimCoupon): string | null {
    const now = this.store.now();
    if (coupon.dateExpires && coupon.dateExpires.getTime() < now.getTime()) return 'This coupon has expired.';
    if (coupon.usageLimit !== null && coupon.usageCount >= coupon.usageLimit) return 'Coupon usage limit has been reached.';
    const items = this.items(session);
    const subtotal = items.reduce((n, i) => n + i.unitPrice * i.quantity, 0);
    if (coupon.minimumAmount && subtotal < coupon.minimumAmount) {
      return `The minimum spend for this coupon is $${decimal(coupon.minimumAmount, this.store.settings.decimals)}.`;
    }
    if (coupon.maximumAmount && subtotal > coupon.maximumAmount) {
      return `The maximum spend for this coupon is $${decimal(coupon.maximumAmount, this.store.settings.decimals)}.`;
    }
    if (!couponFitsCart(coupon, items)) return 'Sorry, this coupon is not applicable to selected products.';
    const email = session.billing.email.toLowerCase();
    if (coupon.emailRestrictions.length && email && !coupon.emailRestrictions.includes(email)) {
      return `Please enter a valid email to use coupon code "${coupon.code}".`;
    }
    return null;
  }

  private async applyCoupon(session: CartSession, body: Record<string, unknown>): Promise<RouteResult> {
    const code = text(body.code).trim().toLowerCase();
    const coupon = code ? this.store.couponByCode(code) : undefined;
    if (!coupon) throw couponError(`"${code}" is an invalid coupon code.`);
    if (session.coupons.includes(coupon.code)) throw couponError(`Coupon code "${coupon.code}" has already been applied.`);
    const problem = this.couponProblem(session, coupon);
    if (problem) throw couponError(problem);
    const individual = this.coupons(session).find((c) => c.individualUse);
    if (individual)
      throw couponError(`"${individual.code}" has already been applied and cannot be used in conjunction with other coupons.`);
    // An individual-use coupon removes the coupons applied before it.
    session.coupons = coupon.individualUse ? [coupon.code] : [...session.coupons, coupon.code];
    return this.respond(session);
  }

  private async removeCoupon(session: CartSession, body: Record<string, unknown>): Promise<RouteResult> {
    const code = text(body.code).trim().toLowerCase();
    if (!session.coupons.includes(code)) {
      throw cartError(400, 'cart_coupon_invalid_code', 'Coupon cannot be removed because it is not already applied to the cart.');
    }
    session.coupons = session.coupons.filter((c) => c !== code);
    return this.respond(session);
  }

  private address<T extends Address>(current: T, given: unknown): T {
    const next = mergeAddress(current, given);
    if (next.country && !/^[A-Z]{2}$/.test(next.country)) {
      throw new WpError(400, 'rest_invalid_param', 'Invalid parameter(s): shipping_address', {
        params: { shipping_address: `${next.country} is not a valid country code` },
      });
    }
    return next;
  }

  /** Merged over the saved addresses, validated, saved only when both pass (address-validation.ts). */
  private async updateCustomer(session: CartSession, body: Record<string, unknown>): Promise<RouteResult> {
    const billing = sanitizeAddress(mergeAddress<BillingAddress>(session.billing, body.billing_address));
    const shipping = sanitizeAddress(mergeAddress<Address>(session.shipping, body.shipping_address));
    validatePosted([
      ...(body.billing_address !== undefined ? [{ param: 'billing_address' as const, address: billing }] : []),
      ...(body.shipping_address !== undefined ? [{ param: 'shipping_address' as const, address: shipping }] : []),
    ]);
    session.billing = billing;
    session.shipping = shipping;
    return this.respond(session);
  }

  private async selectRate(session: CartSession, body: Record<string, unknown>): Promise<RouteResult> {
    if (typeof body.rate_id !== 'string') throw cartError(400, 'cart_missing_rate_id', 'Invalid Rate ID.');
    const packageId = Number(body.package_id ?? 0);
    const pkg = this.price(session).packages.find((p) => p.packageId === packageId);
    if (!pkg || !pkg.rates.some((r) => r.rateId === body.rate_id)) throw cartError(400, 'cart_invalid_rate', 'Invalid shipping rate.');
    session.chosenRates[packageId] = body.rate_id;
    return this.respond(session);
  }

  private async checkout(session: CartSession, body: Record<string, unknown>): Promise<RouteResult> {
    if (!session.lines.length) throw cartError(400, 'cart_empty', 'Cannot create order from empty cart.');
    session.billing = this.address<BillingAddress>(session.billing, body.billing_address);
    session.shipping = this.address<Address>(session.shipping, body.shipping_address);
    const problems = this.stockErrors(session);
    if (problems.length) return this.conflict(session, 'cart_error', problems[0]!.message);
    for (const coupon of this.coupons(session)) {
      const problem = this.couponProblem(session, coupon);
      if (problem) {
        session.coupons = session.coupons.filter((c) => c !== coupon.code);
        return this.conflict(session, 'cart_coupon_error', `The "${coupon.code}" coupon has been removed from your cart: ${problem}`);
      }
    }
    if (!session.billing.email) {
      throw new WpError(400, 'rest_invalid_param', 'Invalid parameter(s): billing_address', {
        params: { billing_address: 'Email address is required' },
      });
    }
    const priced = this.price(session);
    if (priced.needsShipping && priced.packages.some((p) => !p.chosen)) {
      throw cartError(400, 'invalid_shipping_option', 'Sorry, this order requires a shipping option.');
    }
    const methodId = typeof body.payment_method === 'string' ? body.payment_method : '';
    if (!methodId) throw cartError(400, 'checkout_missing_payment_method', 'No payment method provided.');
    const gateway = this.store.gateways.find((g) => g.id === methodId);
    if (!gateway) throw cartError(400, 'checkout_payment_method_disabled', `The ${methodId} payment gateway is not available.`);
    const paymentData = Array.isArray(body.payment_data) ? (body.payment_data as Array<{ key: string; value: unknown }>) : [];

    const order = this.orders.create({
      lines: session.lines.map((l) => {
        const found = this.store.purchasable(l.id)!;
        return { productId: found.product.id, variationId: found.variation?.id ?? 0, quantity: l.quantity, variation: l.variation };
      }),
      couponCodes: [...session.coupons],
      billing: session.billing,
      shipping: session.shipping,
      shippingLines: 'from-rates',
      chosenRates: session.chosenRates,
      packagesByClass: this.options.packagesByClass(),
      status: 'pending',
      createdVia: 'store-api',
      paymentMethod: gateway.id,
      paymentMethodTitle: gateway.title,
      transactionId: '',
      customerNote: typeof body.customer_note === 'string' ? body.customer_note : '',
      meta: [],
    });
    const result = orderPaymentResult(this.store, this.orders, order, gateway, paymentData);
    if (result.declined) {
      throw cartError(400, 'checkout_process_payment_error', result.declined);
    }
    this.sessions.empty(session);
    return {
      body: {
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
      },
      headers: await this.sessionHeaders(session),
    };
  }
}
