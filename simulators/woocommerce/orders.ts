/**
 * Orders in the simulated store: created by the REST API or the Store API checkout, priced with
 * the same rules as carts (shipping lines taken as sent by the REST API), paid (status
 * processing, stock reduced, coupon usage counted), refunded, fulfilled; each change fires the
 * order webhooks WooCommerce fires.
 */
import { randomBytes } from 'node:crypto';
import type { Address, BillingAddress, Fulfillment, Meta, OrderStatus, SimOrder } from './model.js';
import { price, pricingItem, type Priced, type PricingItem } from './pricing.js';
import { orderShape } from './shapes/rest-order.js';
import type { WooStore } from './store.js';
import type { WebhookDispatcher } from './webhooks.js';
import { WpError } from './wp-error.js';

export const emptyAddress = (): Address => ({
  first_name: '',
  last_name: '',
  company: '',
  address_1: '',
  address_2: '',
  city: '',
  state: '',
  postcode: '',
  country: '',
  phone: '',
});

export const emptyBilling = (): BillingAddress => ({ ...emptyAddress(), email: '' });

/** The address with the string fields of `given` that it knows replaced (others ignored, as WooCommerce does). */
export function mergeAddress<T extends Address>(base: T, given: unknown): T {
  const next = { ...base } as unknown as Record<string, string>;
  if (given && typeof given === 'object') {
    for (const [field, value] of Object.entries(given as Record<string, unknown>)) {
      if (field in next && typeof value === 'string') next[field] = value;
    }
  }
  return next as unknown as T;
}

export interface OrderLineInput {
  productId: number;
  variationId: number;
  quantity: number;
  /** Chosen values of "any" attributes, stored as line item meta. */
  variation: Array<{ attribute: string; value: string }>;
  /** Other line item meta sent with the order (REST API). */
  meta?: Array<{ key: string; value: unknown }>;
}

export interface NewOrder {
  lines: OrderLineInput[];
  couponCodes: string[];
  billing: BillingAddress;
  shipping: Address;
  /** REST: shipping lines as sent; Store API: the chosen rates of the cart. */
  shippingLines:
    | Array<{ methodId: string; methodTitle: string; instanceId: string; total: number; meta?: Array<{ key: string; value: string }> }>
    | 'from-rates';
  chosenRates: Record<number, string>;
  packagesByClass: boolean;
  status: OrderStatus;
  createdVia: SimOrder['createdVia'];
  paymentMethod: string;
  paymentMethodTitle: string;
  transactionId: string;
  customerNote: string;
  meta: Array<{ key: string; value: unknown }>;
  /** The cart's hash, for a Store API order (DraftOrderTrait::is_valid_draft_order compares it). */
  cartHash?: string;
}

export class OrderBook {
  constructor(
    private readonly store: WooStore,
    private readonly webhooks: WebhookDispatcher,
  ) {}

  private items(lines: OrderLineInput[]): PricingItem[] {
    return lines.map((line, i) => {
      const id = line.variationId || line.productId;
      const item = pricingItem(this.store, `line-${i}`, id, line.quantity);
      if (!item || (line.variationId && item.productId !== line.productId && line.productId !== 0)) {
        throw new WpError(400, 'woocommerce_rest_invalid_product_id', 'Product ID provided is invalid.');
      }
      return item;
    });
  }

  private meta(key: string, value: unknown): Meta {
    return { id: this.store.nextId('meta', 20_000), key, value };
  }

  private priceOf(input: NewOrder): Priced {
    const coupons = input.couponCodes.map((code) => {
      const coupon = this.store.couponByCode(code);
      if (!coupon) throw new WpError(400, 'woocommerce_rest_invalid_coupon', `Coupon "${code}" does not exist!`);
      return coupon;
    });
    return price(this.store, {
      items: this.items(input.lines),
      coupons,
      shipping: input.shipping.country ? input.shipping : null,
      billing: input.billing.country ? input.billing : null,
      chosenRates: input.chosenRates,
      packagesByClass: input.packagesByClass,
    });
  }

  create(input: NewOrder): SimOrder {
    const store = this.store;
    const priced = this.priceOf(input);
    const now = store.now();
    const order: SimOrder = {
      id: store.nextId('post', 1000),
      orderKey: `wc_order_${randomBytes(9).toString('base64url').slice(0, 13)}`,
      createdVia: input.createdVia,
      status: input.status,
      currency: store.settings.currency,
      dateCreated: now,
      dateModified: now,
      datePaid: null,
      dateCompleted: null,
      customerId: 0,
      customerNote: input.customerNote,
      billing: input.billing,
      shipping: input.shipping,
      paymentMethod: input.paymentMethod,
      paymentMethodTitle: input.paymentMethodTitle,
      transactionId: input.transactionId,
      meta: input.meta.map((m) => this.meta(m.key, m.value)),
      lines: [],
      shippingLines: [],
      couponLines: [],
      taxLines: [],
      refunds: [],
      notes: [],
      fulfillments: [],
      discountTotal: 0,
      shippingTotal: 0,
      cartTax: 0,
      shippingTax: 0,
      total: 0,
      cartHash: input.cartHash ?? '',
      stockHeldUntil: null,
    };
    this.fill(order, input, priced);
    store.orders.set(order.id, order);
    // woocommerce_new_order fires on the first save, a Store API checkout draft included:
    // WC_Webhook::is_valid_resource skips only 'draft', 'auto-draft' and 'new' (includes/class-wc-webhook.php).
    this.webhooks.emit('order.created', () => orderShape(store, order));
    return order;
  }

  /**
   * OrderController::update_order_from_cart: a draft (or a pending / failed order being paid
   * again) rewritten from the cart as it is now; its lines get new item ids.
   */
  refresh(order: SimOrder, input: NewOrder): void {
    const priced = this.priceOf(input);
    order.billing = input.billing;
    order.shipping = input.shipping;
    order.cartHash = input.cartHash ?? order.cartHash;
    this.fill(order, input, priced);
    order.dateModified = this.store.now();
  }

  /**
   * ReserveStock::reserve_stock_for_order (src/Checkout/Helpers/ReserveStock.php): managed stock
   * without backorders is held for `minutes` if what other orders hold leaves enough, else 403
   * `woocommerce_product_not_enough_stock` and nothing is held.
   */
  reserveStock(order: SimOrder, minutes: number): void {
    for (const line of order.lines) {
      const item = this.store.purchasable(line.variationId || line.productId)?.item;
      if (!item?.manageStock || item.backorders !== 'no') continue;
      const wanted = order.lines.filter((l) => (l.variationId || l.productId) === item.id).reduce((n, l) => n + l.quantity, 0);
      if (this.store.remainingStock(item, order.id) < wanted) {
        order.stockHeldUntil = null;
        throw new WpError(
          403,
          'woocommerce_product_not_enough_stock',
          `Not enough units of ${line.name} are available in stock to fulfil this order.`,
        );
      }
    }
    order.stockHeldUntil = new Date(this.store.now().getTime() + minutes * 60_000);
  }

  private fill(order: SimOrder, input: NewOrder, priced: Priced): void {
    const store = this.store;
    const shippingTaxRates = priced.taxRates.filter((r) => r.shipping);
    order.lines = priced.items.map((item, i) => {
      const found = store.purchasable(item.variationId || item.productId)!;
      const attributes = found.variation?.attributes ?? [];
      const chosen = input.lines[i]!.variation;
      const meta = attributes.map((a) =>
        this.meta(a.name.toLowerCase(), a.option || chosen.find((c) => c.attribute === a.name)?.value || ''),
      );
      const suffix = meta.map((m) => m.value).join(', ');
      meta.push(...(input.lines[i]!.meta ?? []).map((m) => this.meta(m.key, m.value)));
      const picture = found.variation?.image ?? found.product.images[0];
      return {
        id: store.nextId('item', 0),
        name: suffix ? `${found.product.name} - ${suffix}` : found.product.name,
        productId: item.productId,
        variationId: item.variationId,
        quantity: item.quantity,
        price: item.unitPrice,
        subtotal: item.subtotal,
        total: item.total,
        taxes: item.taxes,
        sku: found.item.sku,
        meta,
        image: picture ? { id: picture.id, src: picture.src } : null,
        parentName: found.variation ? found.product.name : null,
      };
    });
    const shippingLines =
      input.shippingLines === 'from-rates'
        ? priced.packages.flatMap((p) =>
            p.chosen
              ? [
                  {
                    methodId: p.chosen.instance.methodId,
                    methodTitle: p.chosen.instance.title,
                    instanceId: String(p.chosen.instance.instanceId),
                    total: p.chosen.cost,
                    // WC_Checkout::create_order_shipping_lines copies the rate's meta (Local Pickup's
                    // location, address, details; the package's Items) onto the shipping line.
                    meta: [
                      ...p.chosen.meta,
                      {
                        key: 'Items',
                        value: priced.items
                          .filter((i) => p.itemKeys.includes(i.key))
                          .map((i) => `${i.name} &times; ${i.quantity}`)
                          .join(', '),
                      },
                    ],
                  },
                ]
              : [],
          )
        : input.shippingLines;
    order.shippingLines = shippingLines.map((s) => ({
      id: store.nextId('item', 0),
      methodTitle: s.methodTitle,
      methodId: s.methodId,
      instanceId: s.instanceId,
      total: s.total,
      taxes: shippingTaxRates.map((r) => ({ rateId: r.id, total: Math.round((s.total * Number(r.rate)) / 100), subtotal: 0 })),
      meta: (s.meta ?? []).map((m) => this.meta(m.key, m.value)),
    }));
    order.couponLines = priced.coupons.map((c) => ({
      id: store.nextId('item', 0),
      code: c.coupon.code,
      discount: c.discount,
      discountTax: c.discountTax,
    }));
    order.discountTotal = priced.totals.discount;
    order.shippingTotal = order.shippingLines.reduce((n, s) => n + s.total, 0);
    order.cartTax = order.lines.reduce((n, l) => n + l.taxes.reduce((m, t) => m + t.total, 0), 0);
    order.shippingTax = order.shippingLines.reduce((n, s) => n + s.taxes.reduce((m, t) => m + t.total, 0), 0);
    order.taxLines = priced.taxRates.map((rate) => ({
      id: store.nextId('item', 0),
      rateId: rate.id,
      rateCode: `${rate.country}${rate.state ? `-${rate.state}` : ''}-${rate.name.toUpperCase()}-${rate.priority}`,
      label: rate.name,
      compound: rate.compound,
      taxTotal: order.lines.reduce((n, l) => n + (l.taxes.find((t) => t.rateId === rate.id)?.total ?? 0), 0),
      shippingTaxTotal: order.shippingLines.reduce((n, s) => n + (s.taxes.find((t) => t.rateId === rate.id)?.total ?? 0), 0),
      ratePercent: Number(rate.rate),
    }));
    order.total = order.lines.reduce((n, l) => n + l.total, 0) + order.cartTax + order.shippingTotal + order.shippingTax;
  }

  private touch(order: SimOrder, topic = 'order.updated'): void {
    order.dateModified = this.store.now();
    this.webhooks.emit(topic, () => orderShape(this.store, order));
  }

  /** payment_complete(): processing (completed when nothing ships), paid date, stock and coupon usage. */
  markPaid(order: SimOrder, payment: { method?: string; title?: string; transactionId?: string }): void {
    if (order.datePaid) return;
    if (payment.method) order.paymentMethod = payment.method;
    if (payment.title) order.paymentMethodTitle = payment.title;
    if (payment.transactionId) order.transactionId = payment.transactionId;
    order.datePaid = this.store.now();
    const needsProcessing = order.lines.some((l) => !this.store.purchasable(l.variationId || l.productId)?.item.virtual);
    order.status = needsProcessing ? 'processing' : 'completed';
    if (!needsProcessing) order.dateCompleted = order.datePaid;
    for (const line of order.lines) {
      const item = this.store.purchasable(line.variationId || line.productId)?.item;
      if (item?.manageStock) item.stockQuantity = (item.stockQuantity ?? 0) - line.quantity;
    }
    for (const c of order.couponLines) {
      const coupon = this.store.couponByCode(c.code);
      if (coupon) {
        coupon.usageCount += 1;
        if (order.billing.email) coupon.usedBy.push(order.billing.email);
      }
    }
    this.addNote(
      order,
      `Payment completed${order.transactionId ? ` (Transaction ID: ${order.transactionId})` : ''}. ` +
        `Order status changed from Pending payment to ${order.status === 'processing' ? 'Processing' : 'Completed'}.`,
      false,
    );
    this.touch(order);
  }

  setStatus(order: SimOrder, status: OrderStatus): void {
    order.status = status;
    if (status === 'completed') order.dateCompleted = this.store.now();
    this.touch(order);
  }

  addNote(order: SimOrder, note: string, customerNote: boolean, author = 'WooCommerce'): void {
    order.notes.push({ id: this.store.nextId('comment', 0), author, dateCreated: this.store.now(), note, customerNote });
  }

  refund(
    order: SimOrder,
    input: { amount: number; reason: string; lines: Array<{ lineId: number; quantity: number; total: number }>; apiRefund: boolean },
  ) {
    const refunded = order.refunds.reduce((n, r) => n + r.amount, 0);
    if (input.amount <= 0 || input.amount > order.total - refunded) {
      throw new WpError(500, 'woocommerce_rest_cannot_create_order_refund', 'Invalid refund amount.');
    }
    const gateway = this.store.gateways.find((g) => g.id === order.paymentMethod);
    if (input.apiRefund && !gateway?.charges) {
      throw new WpError(
        500,
        'woocommerce_rest_cannot_create_order_refund',
        'The payment gateway for this order does not support automatic refunds.',
      );
    }
    const refund = {
      id: this.store.nextId('post', 1000),
      dateCreated: this.store.now(),
      amount: input.amount,
      reason: input.reason,
      refundedBy: 1,
      refundedPayment: input.apiRefund,
      lines: input.lines,
    };
    order.refunds.push(refund);
    if (refunded + input.amount === order.total) order.status = 'refunded';
    this.addNote(order, `Refunded ${input.amount / 100} – ${input.reason}`, false, 'admin');
    this.touch(order);
    return refund;
  }

  fulfill(order: SimOrder, input: Omit<Fulfillment, 'id' | 'dateUpdated'>): Fulfillment {
    const fulfillment = { ...input, id: this.store.nextId('fulfillment', 0), dateUpdated: this.store.now() };
    order.fulfillments.push(fulfillment);
    const shipped = new Map<number, number>();
    for (const f of order.fulfillments) for (const i of f.items) shipped.set(i.item_id, (shipped.get(i.item_id) ?? 0) + i.qty);
    if (order.lines.every((l) => (shipped.get(l.id) ?? 0) >= l.quantity) && order.status === 'processing') {
      order.status = 'completed';
      order.dateCompleted = this.store.now();
    }
    this.touch(order);
    return fulfillment;
  }

  update(
    order: SimOrder,
    changes: { status?: OrderStatus; meta?: Array<{ key: string; value: unknown }>; transactionId?: string; setPaid?: boolean },
  ): void {
    for (const m of changes.meta ?? []) {
      const existing = order.meta.find((x) => x.key === m.key);
      if (existing) existing.value = m.value;
      else order.meta.push(this.meta(m.key, m.value));
    }
    if (changes.transactionId !== undefined) order.transactionId = changes.transactionId;
    if (changes.setPaid) {
      this.markPaid(order, {});
      return;
    }
    if (changes.status && changes.status !== order.status) {
      this.setStatus(order, changes.status);
      return;
    }
    this.touch(order);
  }

  delete(order: SimOrder): void {
    this.store.orders.delete(order.id);
    this.webhooks.emit('order.deleted', () => ({ id: order.id }));
  }
}
