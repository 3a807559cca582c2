/**
 * The Store API (`wc/store/v1`) cart routes, with the validation and error codes of
 * plugins/woocommerce/src/StoreApi/Utilities/CartController.php (add_to_cart,
 * parse_variation_data, validate_add_to_cart, apply_coupon) and the Cart* routes of
 * src/StoreApi/Routes/V1: the cart itself (`/cart/add-item`, `/cart/apply-coupon`, ... answer the
 * whole cart), the items and coupons collections (CartItems, CartItemsByKey, CartCoupons,
 * CartCouponsByCode answer single items). Every route runs inside store-session.ts (session,
 * nonce, headers); the checkout is store-checkout.ts, the batch store-batch.ts.
 */
import type { CartSession } from './carts.js';
import { cartItemKey } from './carts.js';
import type { Address, BillingAddress, SimCoupon } from './model.js';
import { mergeAddress } from './orders.js';
import { sanitizeAddress, validatePosted } from './address-validation.js';
import type { RouteContext, RouteResult, Router } from './router.js';
import { cartShape, couponShape, itemShape } from './shapes/store-cart.js';
import type { WooStore } from './store.js';
import type { StoreCart } from './store-cart.js';
import type { NonceRule, StoreSessions } from './store-session.js';
import { missingParam, WpError } from './wp-error.js';
import { text } from '../request-text.js';

type StoreHandler = (session: CartSession, ctx: RouteContext) => Promise<RouteResult>;

const cartError = (status: number, code: string, message: string) => new WpError(status, `woocommerce_rest_${code}`, message);
const couponError = (message: string) => cartError(400, 'cart_coupon_error', message);

export class StoreApi {
  constructor(
    private readonly store: WooStore,
    private readonly cart: StoreCart,
    private readonly sessions: StoreSessions,
  ) {}

  /**
   * A route run as AbstractCartRoute::get_response runs it: session, nonce check, handler, and the
   * session headers on the answer whatever it is. `validate` stands for WordPress's own argument
   * validation, which answers before the route runs (so without the Store API's headers).
   */
  route(
    router: Router,
    method: string,
    path: string,
    nonce: NonceRule,
    handler: StoreHandler,
    validate?: (ctx: RouteContext) => void,
  ): void {
    router.add(method, `/wc/store/v1${path}`, 'public', async (ctx) => {
      validate?.(ctx);
      const { session, hasToken } = await this.sessions.load(ctx);
      try {
        this.sessions.checkNonce(ctx, hasToken, nonce);
        const result = await handler(session, ctx);
        return { ...result, headers: { ...(await this.sessions.headers(session)), ...result.headers } };
      } catch (error) {
        if (error instanceof WpError) error.headers = await this.sessions.headers(session);
        throw error;
      }
    });
  }

  register(router: Router): void {
    const cartRoute = (method: string, path: string, handler: StoreHandler) =>
      this.route(router, method, path, 'writes-without-token', handler);
    cartRoute('GET', '/cart', async (session) => this.whole(session));
    cartRoute('POST', '/cart/add-item', async (session, ctx) => {
      if (ctx.body.key) throw cartError(400, 'cart_item_exists', 'Cannot create an existing cart item.');
      this.addItem(session, ctx.body);
      return this.whole(session, 201);
    });
    cartRoute('POST', '/cart/update-item', async (session, ctx) => {
      await this.setQuantity(session, text(ctx.body.key), ctx.body.quantity);
      return this.whole(session);
    });
    cartRoute('POST', '/cart/remove-item', async (session, ctx) => {
      const index = session.lines.findIndex((l) => l.key === ctx.body.key);
      if (index < 0) return this.cart.conflict(session, 'cart_invalid_key', 'Cart item no longer exists or is invalid.');
      session.lines.splice(index, 1);
      return this.whole(session);
    });
    cartRoute('POST', '/cart/apply-coupon', async (session, ctx) => {
      this.applyCoupon(session, text(ctx.body.code));
      return this.whole(session);
    });
    cartRoute('POST', '/cart/remove-coupon', async (session, ctx) => {
      const code = text(ctx.body.code).trim().toLowerCase();
      if (!session.coupons.includes(code))
        throw cartError(400, 'cart_coupon_invalid_code', 'Coupon cannot be removed because it is not already applied to the cart.');
      session.coupons = session.coupons.filter((c) => c !== code);
      return this.whole(session);
    });
    cartRoute('POST', '/cart/update-customer', async (session, ctx) => this.updateCustomer(session, ctx.body));
    // rate_id is a required argument: WordPress refuses its absence before the route runs.
    this.route(
      router,
      'POST',
      '/cart/select-shipping-rate',
      'writes-without-token',
      (session, ctx) => this.selectRate(session, ctx.body),
      (ctx) => {
        if (ctx.body.rate_id === undefined) throw missingParam('rate_id');
      },
    );
    this.registerCollections(cartRoute);
  }

  /** CartItems, CartItemsByKey, CartCoupons, CartCouponsByCode: single items, not the cart. */
  private registerCollections(cartRoute: (method: string, path: string, handler: StoreHandler) => void): void {
    const item = (session: CartSession, key: string) =>
      itemShape(
        this.store,
        session.lines.find((l) => l.key === key)!,
        this.cart.price(session),
      );
    cartRoute('GET', '/cart/items', async (session) => ({ body: session.lines.map((l) => item(session, l.key)) }));
    cartRoute('POST', '/cart/items', async (session, ctx) => {
      if (ctx.body.key) throw cartError(400, 'cart_item_exists', 'Cannot create an existing cart item.');
      return { status: 201, body: item(session, this.addItem(session, ctx.body)) };
    });
    cartRoute('DELETE', '/cart/items', async (session) => {
      session.lines = [];
      return { body: [] };
    });
    const existing = (session: CartSession, key: string | undefined) => {
      if (!session.lines.some((l) => l.key === key)) throw cartError(409, 'cart_invalid_key', 'Cart item does not exist.');
      return key!;
    };
    cartRoute('GET', '/cart/items/{key}', async (session, ctx) => ({ body: item(session, existing(session, ctx.params[0])) }));
    for (const method of ['POST', 'PUT', 'PATCH']) {
      cartRoute(method, '/cart/items/{key}', async (session, ctx) => {
        const key = existing(session, ctx.params[0]);
        if (ctx.body.quantity !== undefined) await this.setQuantity(session, key, ctx.body.quantity);
        return { body: item(session, key) };
      });
    }
    cartRoute('DELETE', '/cart/items/{key}', async (session, ctx) => {
      const key = existing(session, ctx.params[0]);
      session.lines = session.lines.filter((l) => l.key !== key);
      return { status: 204, body: null };
    });
    const coupon = (session: CartSession, code: string) =>
      couponShape(
        this.store,
        this.cart.price(session).coupons.find((c) => c.coupon.code === code)!,
      );
    cartRoute('GET', '/cart/coupons', async (session) => ({ body: session.coupons.map((c) => coupon(session, c)) }));
    cartRoute('POST', '/cart/coupons', async (session, ctx) => {
      const code = this.applyCoupon(session, text(ctx.body.code));
      return { status: 201, body: coupon(session, code) };
    });
    cartRoute('DELETE', '/cart/coupons', async (session) => {
      session.coupons = [];
      return { body: [] };
    });
    const applied = (session: CartSession, code: string | undefined) => {
      const wanted = (code ?? '').toLowerCase();
      if (!session.coupons.includes(wanted)) throw cartError(404, 'cart_coupon_invalid_code', 'Coupon does not exist in the cart.');
      return wanted;
    };
    cartRoute('GET', '/cart/coupons/{code}', async (session, ctx) => ({ body: coupon(session, applied(session, ctx.params[0])) }));
    cartRoute('DELETE', '/cart/coupons/{code}', async (session, ctx) => {
      const code = applied(session, ctx.params[0]);
      session.coupons = session.coupons.filter((c) => c !== code);
      return { status: 204, body: null };
    });
  }

  /** The cart as CartSchema renders it; the chosen rate of each package is remembered (chosen_shipping_methods). */
  private whole(session: CartSession, status = 200): RouteResult {
    const priced = this.cart.price(session);
    for (const pkg of priced.packages) if (pkg.chosen) session.chosenRates[pkg.packageId] = pkg.chosen.rateId;
    return {
      status,
      body: cartShape(this.store, {
        lines: session.lines,
        priced,
        shipping: session.shipping,
        billing: session.billing,
        errors: this.cart.stockErrors(session),
      }),
    };
  }

  /** CartController::add_to_cart: the line's key (an existing line of the same key grows). */
  private addItem(session: CartSession, body: Record<string, unknown>): string {
    const id = Number(body.id);
    const quantity = Math.max(1, Math.trunc(Number(body.quantity ?? 1)));
    if (!Number.isInteger(id) || id <= 0) throw cartError(400, 'cart_invalid_product', 'This product cannot be added to the cart.');
    const requested = Array.isArray(body.variation) ? (body.variation as Array<{ attribute: string; value: string }>) : [];
    const resolved = this.cart.resolveVariation(id, requested);
    const found = this.store.purchasable(resolved.id)!;
    const key = cartItemKey(found.product.id, found.variation?.id ?? 0, resolved.variation);
    const existing = session.lines.find((l) => l.key === key);
    const inCart = session.lines.filter((l) => l.id === resolved.id).reduce((n, l) => n + l.quantity, 0);
    this.checkStock(session, resolved.id, inCart, quantity);
    if (existing) existing.quantity += quantity;
    else session.lines.push({ key, id: resolved.id, quantity, variation: resolved.variation });
    return key;
  }

  /** validate_add_to_cart: the stock left is the stock less what other placed orders hold. */
  private checkStock(session: CartSession, id: number, inCart: number, quantity: number): void {
    const found = this.store.purchasable(id)!;
    const name = found.product.name;
    if (this.store.stockStatus(found.item) === 'outofstock') {
      throw cartError(400, 'product_out_of_stock', `You cannot add &quot;${name}&quot; to the cart because the product is out of stock.`);
    }
    if (!found.item.manageStock || found.item.backorders !== 'no') return;
    const remaining = this.store.remainingStock(found.item, session.draftOrderId);
    if (remaining < inCart + quantity) {
      throw cartError(
        400,
        'product_partially_out_of_stock',
        `You cannot add that amount of &quot;${name}&quot; to the cart because there is not enough stock (${remaining} remaining).`,
      );
    }
  }

  private async setQuantity(session: CartSession, key: string, value: unknown): Promise<void> {
    const line = session.lines.find((l) => l.key === key);
    if (!line) return this.cart.conflict(session, 'cart_invalid_key', 'Cart item does not exist.');
    const quantity = Math.trunc(Number(value));
    const found = this.store.purchasable(line.id)!;
    if (!Number.isFinite(quantity) || quantity < 1) {
      throw new WpError(400, 'invalid_quantity', `The minimum quantity of "${found.product.name}" allowed in the cart is 1.`);
    }
    const remaining = this.store.remainingStock(found.item, session.draftOrderId);
    if (found.item.manageStock && found.item.backorders === 'no' && quantity > remaining) {
      throw new WpError(400, 'invalid_quantity', `The maximum quantity of "${found.product.name}" allowed in the cart is ${remaining}.`);
    }
    line.quantity = quantity;
  }

  /** CartController::apply_coupon; the code applied (wc_format_coupon_code: lower case). */
  private applyCoupon(session: CartSession, given: string): string {
    const code = given.trim().toLowerCase();
    const coupon = code ? this.store.couponByCode(code) : undefined;
    if (!coupon) throw couponError(`"${code}" is an invalid coupon code.`);
    if (session.coupons.includes(coupon.code)) throw couponError(`Coupon code "${coupon.code}" has already been applied.`);
    const problem = this.cart.couponProblem(session, coupon);
    if (problem) throw couponError(problem);
    const individual = this.cart.coupons(session).find((c: SimCoupon) => c.individualUse);
    if (individual)
      throw couponError(`"${individual.code}" has already been applied and cannot be used in conjunction with other coupons.`);
    // An individual-use coupon removes the coupons applied before it.
    session.coupons = coupon.individualUse ? [coupon.code] : [...session.coupons, coupon.code];
    return coupon.code;
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
    return this.whole(session);
  }

  /**
   * CartSelectShippingRate: CartController::select_shipping_rate stores the rate id in the session
   * for the package given, or for every package, without checking it; a rate the package does not
   * offer is then ignored and the package keeps its default rate (the first it offers), with 200.
   */
  private async selectRate(session: CartSession, body: Record<string, unknown>): Promise<RouteResult> {
    const rateId = text(body.rate_id);
    const packages = this.cart.price(session).packages;
    const targets = body.package_id === undefined ? packages.map((p) => p.packageId) : [Number(body.package_id)];
    for (const packageId of targets) session.chosenRates[packageId] = rateId;
    return this.whole(session);
  }
}
