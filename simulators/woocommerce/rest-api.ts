/**
 * The REST API (`wc/v3`) routes the gateway uses, with WooCommerce's query parameters, paging
 * headers (X-WP-Total, X-WP-TotalPages, Link) and errors: products (search, category, tag, sku,
 * slug, include, type, stock_status, min_price, max_price, orderby, per_page <= 100, page),
 * variations per product and across products (`/variations?parent=`, WooCommerce 10.3+),
 * categories, coupons (`?code=`), orders (create with set_paid, transaction_id, shipping_lines,
 * coupon_lines, meta_data; read; update; list), refunds, notes, order fulfillments (when the
 * feature is on) or the Shipment Tracking extension's routes, webhooks (rest-webhooks.ts), tax setting
 * options (rest-settings.ts), and system status.
 */
import type { Address, BillingAddress, OrderStatus, SimOrder, SimProduct } from './model.js';
import { emptyAddress, emptyBilling, mergeAddress, type OrderBook, type OrderLineInput } from './orders.js';
import type { Permission, RouteContext, RouteResult, Router } from './router.js';
import { couponShape } from './shapes/rest-coupon.js';
import { fulfillmentShape, noteShape, orderShape, refundShape, shipmentTrackingShape } from './shapes/rest-order.js';
import { categoryShape, productShape, variationAsProductShape, variationShape } from './shapes/rest-product.js';
import { registerSettingsRoutes } from './rest-settings.js';
import { registerWebhookRoutes } from './rest-webhooks.js';
import type { WooStore } from './store.js';
import type { WebhookDispatcher } from './webhooks.js';
import { invalidParam, noRoute, WpError } from './wp-error.js';
import { text } from '../request-text.js';
import { queryOrders } from './order-query.js';

export type TrackingMode = 'fulfillments' | 'shipment-tracking' | 'none';

export interface RestApiOptions {
  tracking: () => TrackingMode;
  /** WooCommerce 10.3+ serves `/wc/v3/variations`; older stores answer rest_no_route. */
  variationsEndpoint: () => boolean;
  /** The WooCommerce release system_status reports (`environment.version`). */
  version: string;
}

const ORDER_STATUSES: OrderStatus[] = ['pending', 'processing', 'on-hold', 'completed', 'cancelled', 'refunded', 'failed'];

const ids = (value: string | undefined): number[] =>
  (value ?? '')
    .split(/[,\s]+/)
    .filter(Boolean)
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);

function toMinor(value: string, decimals: number, param: string): number {
  if (!/^\d+(\.\d+)?$/.test(value.trim())) throw invalidParam(param, `${param} is not of type string.`);
  const [whole, fraction = ''] = value.trim().split('.');
  return Number(whole) * 10 ** decimals + Number(fraction.padEnd(decimals, '0').slice(0, decimals) || 0);
}

const stripTags = (html: string) => html.replace(/<[^>]*>/g, ' ');

/** A page of a collection with WordPress's paging headers. */
function paginate<T>(ctx: RouteContext, home: string, all: T[]): RouteResult {
  const perPage = ctx.query.per_page === undefined ? 10 : Number(ctx.query.per_page);
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > 100)
    throw invalidParam('per_page', 'per_page must be between 1 (inclusive) and 100 (inclusive)');
  const page = ctx.query.page === undefined ? 1 : Number(ctx.query.page);
  if (!Number.isInteger(page) || page < 1) throw invalidParam('page', 'page must be greater than or equal to 1');
  const offset = ctx.query.offset !== undefined ? Number(ctx.query.offset) : (page - 1) * perPage;
  const totalPages = Math.ceil(all.length / perPage);
  const link = (p: number) => {
    const query = new URLSearchParams({ ...ctx.query, page: String(p) });
    for (const k of [...query.keys()]) if (k.startsWith('oauth_') || k.startsWith('consumer_')) query.delete(k);
    return `<${home}/wp-json${ctx.route}?${query.toString()}>`;
  };
  const rels = [...(page > 1 ? [`${link(page - 1)}; rel="prev"`] : []), ...(page < totalPages ? [`${link(page + 1)}; rel="next"`] : [])];
  return {
    body: all.slice(offset, offset + perPage),
    headers: { 'X-WP-Total': String(all.length), 'X-WP-TotalPages': String(totalPages), ...(rels.length && { Link: rels.join(', ') }) },
  };
}

const metaInput = (value: unknown): Array<{ key: string; value: unknown }> =>
  Array.isArray(value)
    ? value.filter((m: unknown): m is { key: string; value: unknown } => typeof (m as { key?: unknown } | null)?.key === 'string')
    : [];

export class RestApi {
  constructor(
    private readonly store: WooStore,
    private readonly orders: OrderBook,
    private readonly webhooks: WebhookDispatcher,
    private readonly options: RestApiOptions,
  ) {}

  register(router: Router): void {
    const add = (
      method: string,
      path: string,
      permission: Permission,
      handler: (ctx: RouteContext) => RouteResult | Promise<RouteResult>,
    ) => router.add(method, path, permission, handler);
    add('GET', '/wc/v3/system_status', 'read', () => ({ body: this.systemStatus() }));
    add('GET', '/wc/v3/products', 'read', (ctx) => this.listProducts(ctx));
    add('GET', '/wc/v3/products/categories', 'read', (ctx) =>
      paginate(
        ctx,
        this.store.homeUrl(),
        this.store.categories.map((c) => categoryShape(this.store, c.id)),
      ),
    );
    add('GET', '/wc/v3/products/{id}', 'read', (ctx) => ({ body: this.productOrVariation(Number(ctx.params[0])) }));
    add('GET', '/wc/v3/products/{id}/variations', 'read', (ctx) => this.listVariations(ctx, [Number(ctx.params[0])]));
    add('GET', '/wc/v3/products/{id}/variations/{id}', 'read', (ctx) => ({
      body: this.variation(Number(ctx.params[0]), Number(ctx.params[1])),
    }));
    add('GET', '/wc/v3/variations', 'read', (ctx) => {
      if (!this.options.variationsEndpoint()) throw noRoute();
      return this.listVariations(ctx, ids(ctx.query.parent));
    });
    add('GET', '/wc/v3/coupons', 'read', (ctx) => this.listCoupons(ctx));
    add('GET', '/wc/v3/coupons/{id}', 'read', (ctx) => ({ body: couponShape(this.store, this.coupon(Number(ctx.params[0]))) }));
    add('GET', '/wc/v3/orders', 'read', (ctx) => this.listOrders(ctx));
    add('POST', '/wc/v3/orders', 'write', (ctx) => ({ status: 201, body: orderShape(this.store, this.createOrder(ctx.body)) }));
    add('GET', '/wc/v3/orders/{id}', 'read', (ctx) => ({ body: orderShape(this.store, this.order(Number(ctx.params[0]))) }));
    for (const method of ['PUT', 'POST', 'PATCH']) {
      add(method, '/wc/v3/orders/{id}', 'write', (ctx) => ({
        body: orderShape(this.store, this.updateOrder(this.order(Number(ctx.params[0]), 400), ctx.body)),
      }));
    }
    add('DELETE', '/wc/v3/orders/{id}', 'write', (ctx) => this.deleteOrder(ctx));
    add('GET', '/wc/v3/orders/{id}/refunds', 'read', (ctx) => {
      const order = this.order(Number(ctx.params[0]));
      return paginate(
        ctx,
        this.store.homeUrl(),
        order.refunds.map((r) => refundShape(this.store, order, r)),
      );
    });
    add('POST', '/wc/v3/orders/{id}/refunds', 'write', (ctx) => this.createRefund(ctx));
    add('GET', '/wc/v3/orders/{id}/notes', 'read', (ctx) => {
      const order = this.order(Number(ctx.params[0]));
      return { body: [...order.notes].reverse().map((n) => noteShape(this.store, order, n)) };
    });
    add('POST', '/wc/v3/orders/{id}/notes', 'write', (ctx) => {
      const order = this.order(Number(ctx.params[0]));
      if (typeof ctx.body.note !== 'string' || !ctx.body.note)
        throw new WpError(400, 'woocommerce_rest_missing_note', 'Missing order note.');
      this.orders.addNote(order, ctx.body.note, ctx.body.customer_note === true, ctx.body.added_by_user ? 'admin' : 'WooCommerce');
      return { status: 201, body: noteShape(this.store, order, order.notes.at(-1)!) };
    });
    add('GET', '/wc/v3/orders/{id}/fulfillments', 'read', (ctx) => {
      if (this.options.tracking() !== 'fulfillments') throw noRoute();
      const order = this.order(Number(ctx.params[0]));
      return { body: order.fulfillments.map((f) => fulfillmentShape(order, f)) };
    });
    add('GET', '/wc-shipment-tracking/v3/orders/{id}/shipment-trackings', 'read', (ctx) => {
      if (this.options.tracking() !== 'shipment-tracking') throw noRoute();
      const order = this.order(Number(ctx.params[0]));
      return { body: order.fulfillments.filter((f) => f.trackingNumber).map((f) => shipmentTrackingShape(this.store, order, f)) };
    });
    registerWebhookRoutes(router, this.store, this.webhooks, (ctx, all) => paginate(ctx, this.store.homeUrl(), all));
    registerSettingsRoutes(router, this.store);
  }

  private systemStatus() {
    const s = this.store.settings;
    const plugins =
      this.options.tracking() === 'shipment-tracking'
        ? [
            {
              plugin: 'woocommerce-shipment-tracking/woocommerce-shipment-tracking.php',
              name: 'WooCommerce Shipment Tracking',
              version: '2.6.0',
            },
          ]
        : [];
    return {
      environment: {
        home_url: this.store.homeUrl(),
        site_url: this.store.homeUrl(),
        version: this.options.version,
        wp_version: '6.8.2',
        wp_multisite: false,
        language: 'en_US',
        server_info: 'nginx/1.26',
        php_version: '8.3.12',
      },
      active_plugins: plugins,
      settings: {
        api_enabled: true,
        force_ssl: false,
        currency: s.currency,
        currency_symbol: s.currencySymbol,
        currency_position: 'left',
        thousand_separator: ',',
        decimal_separator: '.',
        number_of_decimals: s.decimals,
        geolocation_enabled: false,
        woocommerce_com_connected: 'no',
      },
    };
  }

  private product(id: number): SimProduct {
    const product = this.store.products.get(id);
    if (!product) throw new WpError(404, 'woocommerce_rest_product_invalid_id', 'Invalid ID.');
    return product;
  }

  /** `/products/{id}` answers for a variation id too (wc_get_product loads any product type). */
  private productOrVariation(id: number) {
    const variation = this.store.variations.get(id);
    if (variation) return variationShape(this.store, variation);
    return productShape(this.store, this.product(id));
  }

  private variation(parentId: number, id: number) {
    const variation = this.store.variations.get(id);
    if (!variation || variation.parentId !== parentId)
      throw new WpError(404, 'woocommerce_rest_product_variation_invalid_id', 'Invalid ID.');
    return variationShape(this.store, variation);
  }

  private listProducts(ctx: RouteContext): RouteResult {
    const q = ctx.query;
    const dp = this.store.settings.decimals;
    let products = [...this.store.products.values()];
    const terms = (q.search ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    if (terms.length) {
      products = products.filter((p) => {
        const text = `${p.name} ${stripTags(p.shortDescription)} ${stripTags(p.description)}`.toLowerCase();
        return terms.every((t) => text.includes(t));
      });
    }
    if (q.category) {
      const wanted = ids(q.category);
      products = products.filter((p) => p.categoryIds.some((c) => wanted.includes(c)));
    }
    if (q.tag) {
      const wanted = ids(q.tag);
      products = products.filter((p) => p.tagIds.some((t) => wanted.includes(t)));
    }
    if (q.include) {
      const wanted = ids(q.include);
      products = products.filter((p) => wanted.includes(p.id));
    }
    if (q.exclude) products = products.filter((p) => !ids(q.exclude).includes(p.id));
    if (q.slug) products = products.filter((p) => p.slug === q.slug);
    if (q.type) products = products.filter((p) => p.type === q.type);
    if (q.stock_status) products = products.filter((p) => this.store.productStockStatus(p) === q.stock_status);
    if (q.min_price !== undefined || q.max_price !== undefined) {
      const min = q.min_price !== undefined ? toMinor(q.min_price, dp, 'min_price') : 0;
      const max = q.max_price !== undefined ? toMinor(q.max_price, dp, 'max_price') : Infinity;
      // wc_product_meta_lookup: the product's price range overlaps the bounds.
      products = products.filter((p) => {
        const prices = this.store.prices(p);
        return Math.max(...prices) >= min && Math.min(...prices) <= max;
      });
    }
    if (q.sku) {
      // With `sku`, the query covers variations too (post_type product and product_variation).
      const skus = q.sku.split(',').map((s) => s.trim().toLowerCase());
      const matchingProducts = products.filter((p) => skus.includes(p.sku.toLowerCase()));
      const matchingVariations = [...this.store.variations.values()].filter((v) => skus.includes(v.sku.toLowerCase()));
      return paginate(ctx, this.store.homeUrl(), [
        ...matchingProducts.map((p) => productShape(this.store, p)),
        ...matchingVariations.map((v) => variationAsProductShape(this.store, v)),
      ]);
    }
    const order = q.order === 'asc' ? 1 : -1;
    const orderby = q.orderby ?? 'date';
    const key: Record<string, (p: SimProduct) => number | string> = {
      date: (p) => p.dateCreated.getTime(),
      id: (p) => p.id,
      title: (p) => p.name.toLowerCase(),
      slug: (p) => p.slug,
      price: (p) => Math.min(...this.store.prices(p)),
      menu_order: (p) => p.menuOrder,
      popularity: (p) => p.ratingCount,
      rating: (p) => Number(p.averageRating),
    };
    if (orderby === 'include' && q.include) {
      const wanted = ids(q.include);
      products.sort((a, b) => wanted.indexOf(a.id) - wanted.indexOf(b.id));
    } else if (key[orderby]) {
      const by = key[orderby];
      products.sort((a, b) => {
        const x = by(a);
        const y = by(b);
        if (x !== y) return (x < y ? -1 : 1) * order;
        return a.name.localeCompare(b.name);
      });
    } else {
      throw invalidParam('orderby', `orderby is not one of ${Object.keys(key).join(', ')}, include.`);
    }
    return paginate(
      ctx,
      this.store.homeUrl(),
      products.map((p) => productShape(this.store, p)),
    );
  }

  private listVariations(ctx: RouteContext, parents: number[]): RouteResult {
    for (const parent of parents) this.product(parent);
    const variations = [...this.store.variations.values()]
      .filter((v) => parents.length === 0 || parents.includes(v.parentId))
      .filter((v) => !ctx.query.include || ids(ctx.query.include).includes(v.id))
      .sort((a, b) => a.parentId - b.parentId || a.menuOrder - b.menuOrder);
    return paginate(
      ctx,
      this.store.homeUrl(),
      variations.map((v) => variationShape(this.store, v)),
    );
  }

  private coupon(id: number) {
    const coupon = this.store.coupons.get(id);
    if (!coupon) throw new WpError(404, 'woocommerce_rest_shop_coupon_invalid_id', 'Invalid ID.');
    return coupon;
  }

  private listCoupons(ctx: RouteContext): RouteResult {
    let coupons = [...this.store.coupons.values()];
    if (ctx.query.code !== undefined) {
      const found = this.store.couponByCode(ctx.query.code);
      coupons = found ? [found] : [];
    }
    if (ctx.query.search) coupons = coupons.filter((c) => c.code.includes(ctx.query.search!.toLowerCase()));
    return paginate(
      ctx,
      this.store.homeUrl(),
      coupons.map((c) => couponShape(this.store, c)),
    );
  }

  /** An unknown id is 404 when read or deleted, 400 when updated (WC_REST_CRUD_Controller::update_item). */
  private order(id: number, missing = 404): SimOrder {
    const order = this.store.orders.get(id);
    if (!order) throw new WpError(missing, 'woocommerce_rest_shop_order_invalid_id', 'Invalid ID.');
    return order;
  }

  /**
   * GET /orders: WC_REST_Orders_Controller / WC_REST_Orders_V2_Controller::prepare_objects_query
   * over WC_REST_CRUD_Controller::prepare_objects_query (order-query.ts for the filters).
   */
  private listOrders(ctx: RouteContext): RouteResult {
    const q = ctx.query;
    const orders = queryOrders(this.store, q).sort(
      (a, b) => (q.order === 'asc' ? 1 : -1) * (a.dateCreated.getTime() - b.dateCreated.getTime() || a.id - b.id),
    );
    return paginate(
      ctx,
      this.store.homeUrl(),
      orders.map((o) => orderShape(this.store, o)),
    );
  }

  private createOrder(body: Record<string, unknown>): SimOrder {
    const lineItems = Array.isArray(body.line_items) ? (body.line_items as Array<Record<string, unknown>>) : [];
    const lines: OrderLineInput[] = lineItems.map((li) => {
      if (!li.product_id && !li.variation_id && !li.sku)
        throw new WpError(400, 'woocommerce_rest_required_product_reference', 'Product ID or SKU is required.');
      const quantity = Number(li.quantity ?? 1);
      if (!Number.isInteger(quantity) || quantity <= 0)
        throw new WpError(400, 'woocommerce_rest_invalid_quantity', 'Product quantity must be a positive integer.');
      const variationId = Number(li.variation_id ?? 0);
      const productId = Number(li.product_id ?? this.store.variations.get(variationId)?.parentId ?? 0);
      const attributes = this.store.products.get(productId)?.attributes ?? [];
      const isAttribute = (key: string) => attributes.some((a) => a.name.toLowerCase() === key.toLowerCase());
      const variation = metaInput(li.meta_data).flatMap((m) => {
        const attribute = attributes.find((a) => a.name.toLowerCase() === m.key.toLowerCase());
        return attribute ? [{ attribute: attribute.name, value: String(m.value) }] : [];
      });
      return { productId, variationId, quantity, variation, meta: metaInput(li.meta_data).filter((m) => !isAttribute(m.key)) };
    });
    const shippingLines = (Array.isArray(body.shipping_lines) ? (body.shipping_lines as Array<Record<string, unknown>>) : []).map((s) => ({
      methodId: text(s.method_id),
      methodTitle: text(s.method_title),
      instanceId: text(s.instance_id),
      total: toMinor(text(s.total, '0'), this.store.settings.decimals, 'shipping_lines'),
    }));
    const couponCodes = (Array.isArray(body.coupon_lines) ? (body.coupon_lines as Array<{ code?: unknown }>) : []).map((c) => text(c.code));
    const status = typeof body.status === 'string' ? (body.status as OrderStatus) : 'pending';
    if (!ORDER_STATUSES.includes(status)) throw invalidParam('status', `status is not one of ${ORDER_STATUSES.join(', ')}.`);
    const gateway = this.store.gateways.find((g) => g.id === body.payment_method);
    const order = this.orders.create({
      lines,
      couponCodes,
      billing: mergeAddress<BillingAddress>(emptyBilling(), body.billing),
      shipping: mergeAddress<Address>(emptyAddress(), body.shipping),
      shippingLines,
      chosenRates: {},
      packagesByClass: false,
      status,
      createdVia: 'rest-api',
      paymentMethod: typeof body.payment_method === 'string' ? body.payment_method : '',
      paymentMethodTitle: typeof body.payment_method_title === 'string' ? body.payment_method_title : (gateway?.title ?? ''),
      transactionId: typeof body.transaction_id === 'string' ? body.transaction_id : '',
      customerNote: typeof body.customer_note === 'string' ? body.customer_note : '',
      meta: metaInput(body.meta_data),
    });
    if (body.set_paid === true) this.orders.markPaid(order, {});
    return order;
  }

  private updateOrder(order: SimOrder, body: Record<string, unknown>): SimOrder {
    const status = typeof body.status === 'string' ? (body.status as OrderStatus) : undefined;
    if (status && !ORDER_STATUSES.includes(status)) throw invalidParam('status', `status is not one of ${ORDER_STATUSES.join(', ')}.`);
    this.orders.update(order, {
      ...(status && { status }),
      meta: metaInput(body.meta_data),
      ...(typeof body.transaction_id === 'string' && { transactionId: body.transaction_id }),
      setPaid: body.set_paid === true,
    });
    return order;
  }

  private deleteOrder(ctx: RouteContext): RouteResult {
    const order = this.order(Number(ctx.params[0]));
    const shape = orderShape(this.store, order);
    if (ctx.query.force === 'true' || ctx.query.force === '1') this.orders.delete(order);
    else this.orders.setStatus(order, 'trash');
    return { body: shape };
  }

  private createRefund(ctx: RouteContext): RouteResult {
    const order = this.order(Number(ctx.params[0]));
    const body = ctx.body;
    const dp = this.store.settings.decimals;
    const lines = (Array.isArray(body.line_items) ? (body.line_items as Array<Record<string, unknown>>) : []).map((l) => ({
      lineId: Number(l.id),
      quantity: Number(l.quantity ?? 0),
      total: toMinor(text(l.refund_total, '0'), dp, 'line_items'),
    }));
    const amount = body.amount !== undefined ? toMinor(text(body.amount), dp, 'amount') : lines.reduce((n, l) => n + l.total, 0);
    const refund = this.orders.refund(order, {
      amount,
      reason: typeof body.reason === 'string' ? body.reason : '',
      lines,
      // api_refund defaults to true: the payment gateway is asked to return the money.
      apiRefund: body.api_refund !== false,
    });
    return { status: 201, body: refundShape(this.store, order, refund) };
  }
}
