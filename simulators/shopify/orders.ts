/**
 * Orders: created from a paid checkout or a completed draft order, moved along by the merchant
 * (fulfillments with tracking and events, refunds, cancellation), presented as the Admin API's
 * Order, and announced by webhook with Shopify's REST-style payloads.
 */
import { randomBytes } from 'node:crypto';
import type { Quote } from '../../adapters/contract.js';
import { allocate } from '../../adapters/memory/money-math.js';
import { fromMinorUnits } from '../../adapters/kit/money.js';
import { connection, gid, gidId, moneyBag, type ConnectionArgs } from './graph.js';
import { mailingAddress, type DeliveryAddressInput } from './addresses.js';
import type { Attribute } from './carts.js';
import type { ShopData } from './shop-data.js';
import type { Webhooks } from './webhooks.js';

export interface OrderLineRecord {
  id: string;
  variantId: string;
  productId: string;
  title: string;
  variantTitle: string | null;
  sku: string | null;
  quantity: number;
  unitPrice: number;
  /** Discount allocated to the line at checkout. */
  discount: number;
  requiresShipping: boolean;
  attributes: Attribute[];
  fulfilled: number;
  refunded: number;
  /** Removed by cancellation. */
  removed: number;
}

export interface FulfillmentRecord {
  id: string;
  createdAt: string;
  updatedAt: string;
  displayStatus: string;
  tracking: { company: string | null; number: string | null; url: string | null };
  lines: Array<{ lineId: string; quantity: number }>;
  events: Array<{ id: string; status: string; happenedAt: string; message: string | null }>;
}

export interface RefundRecord {
  id: string;
  createdAt: string;
  note: string | null;
  lines: Array<{ lineId: string; quantity: number; amount: number }>;
  /** Shipping refunded. */
  shipping: number;
  amount: number;
}

export interface OrderRecord {
  id: string;
  name: string;
  token: string;
  createdAt: string;
  updatedAt: string;
  currency: string;
  email: string | null;
  sourceName: string;
  tags: string[];
  attributes: Attribute[];
  discountCodes: string[];
  lines: OrderLineRecord[];
  shippingAddress: DeliveryAddressInput | null;
  shippingLine: { title: string; code: string; amount: number; discount: number } | null;
  taxLines: Array<{ title: string; amount: number }>;
  totals: { tax: number; total: number };
  fulfillments: FulfillmentRecord[];
  refunds: RefundRecord[];
  cancelledAt: string | null;
  cancelReason: string | null;
}

export interface NewOrder {
  quote: Quote;
  email: string | null;
  sourceName: string;
  tags: string[];
  attributes: Attribute[];
  /** Line attributes by quote line id. */
  lineAttributes: Map<string, Attribute[]>;
  shippingAddress: DeliveryAddressInput | null;
}

/** Thrown for a merchant action the order does not allow (answered 422 by the control API). */
export class OrderActionError extends Error {}

const numeric = (id: string) => Number(id.split('/').at(-1));
const current = (l: OrderLineRecord) => l.quantity - l.refunded - l.removed;

export class Orders {
  private readonly orders = new Map<string, OrderRecord>();
  private sequence = 0;
  private child = 0;

  constructor(
    private readonly shop: ShopData,
    private readonly webhooks: Webhooks,
    private readonly now: () => number,
  ) {}

  private stamp(): string {
    return new Date(this.now()).toISOString();
  }

  private nextId(type: string): string {
    return gid(type, 9_100_000_000 + ++this.child);
  }

  get(id: string): OrderRecord | undefined {
    return this.orders.get(id);
  }

  all(): OrderRecord[] {
    return [...this.orders.values()];
  }

  /** Records a paid order from a final quote and announces it (orders/create). */
  async create(input: NewOrder): Promise<OrderRecord> {
    const { quote: q } = input;
    const n = ++this.sequence;
    const at = this.stamp();
    const lineDiscount = (lineId: string) =>
      q.discounts.applied.reduce(
        (s, d) => s + d.allocations.filter((a) => a.target.kind === 'line' && a.target.lineId === lineId).reduce((t, a) => t + a.amount, 0),
        0,
      );
    const shippingDiscount = q.discounts.applied.reduce(
      (s, d) => s + d.allocations.filter((a) => a.target.kind === 'shipping').reduce((t, a) => t + a.amount, 0),
      0,
    );
    const group = q.fulfillment?.[0]?.groups[0];
    const option = group?.options.find((o) => o.id === group.selectedOptionId);
    const order: OrderRecord = {
      id: gid('Order', 5_500_000_000_000 + n),
      name: `#${1000 + n}`,
      token: randomBytes(16).toString('hex'),
      createdAt: at,
      updatedAt: at,
      currency: q.currency,
      email: input.email,
      sourceName: input.sourceName,
      tags: input.tags,
      attributes: input.attributes,
      discountCodes: q.discounts.applied.flatMap((d) => (d.code ? [d.code.toUpperCase()] : [])),
      lines: q.lines.map((l) => ({
        id: gid('LineItem', 17_000_000_000_000 + n * 100 + q.lines.indexOf(l)),
        variantId: l.variantId,
        productId: l.productId,
        title: l.title,
        variantTitle: l.variantTitle ?? null,
        sku: l.sku ?? null,
        quantity: l.quantity,
        unitPrice: l.unitPrice,
        discount: lineDiscount(l.lineId),
        requiresShipping: l.requiresShipping,
        attributes: input.lineAttributes.get(l.lineId) ?? [],
        fulfilled: 0,
        refunded: 0,
        removed: 0,
      })),
      shippingAddress: input.shippingAddress,
      shippingLine: option ? { title: option.title, code: option.id, amount: option.amount, discount: shippingDiscount } : null,
      taxLines: q.taxLines,
      totals: { tax: q.totals.tax ?? 0, total: q.totals.total },
      fulfillments: [],
      refunds: [],
      cancelledAt: null,
      cancelReason: null,
    };
    this.orders.set(order.id, order);
    await this.webhooks.emit('orders/create', this.payload(order));
    return order;
  }

  private need(orderId: string): OrderRecord {
    const order = this.orders.get(orderId);
    if (!order) throw new OrderActionError(`no order ${orderId}`);
    return order;
  }

  private lineOf(order: OrderRecord, lineId: string): OrderLineRecord {
    const line = order.lines.find((l) => l.id === lineId || gidId('LineItem', l.id) === lineId);
    if (!line) throw new OrderActionError(`order ${order.name} has no line ${lineId}`);
    return line;
  }

  private async changed(order: OrderRecord, topic?: { topic: string; payload: unknown }): Promise<OrderRecord> {
    order.updatedAt = this.stamp();
    if (topic) await this.webhooks.emit(topic.topic, topic.payload);
    await this.webhooks.emit('orders/updated', this.payload(order));
    return order;
  }

  /** Ships lines (default: everything not yet shipped) with tracking: fulfillments/create. */
  async fulfill(
    orderId: string,
    input: { lines?: Array<{ lineItemId: string; quantity: number }>; tracking?: Partial<FulfillmentRecord['tracking']> },
  ) {
    const order = this.need(orderId);
    if (order.cancelledAt) throw new OrderActionError(`order ${order.name} is cancelled`);
    const wanted =
      input.lines ?? order.lines.filter((l) => l.requiresShipping).map((l) => ({ lineItemId: l.id, quantity: current(l) - l.fulfilled }));
    const lines = wanted.map((w) => ({ line: this.lineOf(order, w.lineItemId), quantity: w.quantity })).filter((w) => w.quantity > 0);
    for (const { line, quantity } of lines) {
      if (!Number.isSafeInteger(quantity) || quantity > current(line) - line.fulfilled)
        throw new OrderActionError(`cannot fulfill ${quantity} of ${line.title}`);
    }
    if (lines.length === 0) throw new OrderActionError(`order ${order.name} has nothing left to fulfill`);
    for (const { line, quantity } of lines) line.fulfilled += quantity;
    const at = this.stamp();
    const fulfillment: FulfillmentRecord = {
      id: this.nextId('Fulfillment'),
      createdAt: at,
      updatedAt: at,
      displayStatus: 'FULFILLED',
      tracking: { company: input.tracking?.company ?? null, number: input.tracking?.number ?? null, url: input.tracking?.url ?? null },
      lines: lines.map((l) => ({ lineId: l.line.id, quantity: l.quantity })),
      events: [],
    };
    order.fulfillments.push(fulfillment);
    await this.changed(order, { topic: 'fulfillments/create', payload: this.fulfillmentPayload(order, fulfillment) });
    return { order, fulfillment };
  }

  /** A carrier event on a fulfillment (IN_TRANSIT, OUT_FOR_DELIVERY, DELIVERED, ...): fulfillments/update. */
  async fulfillmentEvent(orderId: string, fulfillmentId: string, status: string, message?: string) {
    const order = this.need(orderId);
    const fulfillment = order.fulfillments.find((f) => f.id === fulfillmentId || gidId('Fulfillment', f.id) === fulfillmentId);
    if (!fulfillment) throw new OrderActionError(`order ${order.name} has no fulfillment ${fulfillmentId}`);
    const at = this.stamp();
    fulfillment.events.push({ id: this.nextId('FulfillmentEvent'), status, happenedAt: at, message: message ?? null });
    fulfillment.displayStatus = status;
    fulfillment.updatedAt = at;
    await this.changed(order, { topic: 'fulfillments/update', payload: this.fulfillmentPayload(order, fulfillment) });
    return { order, fulfillment };
  }

  /** Refunds lines (their discounted value) and optionally the shipping: refunds/create. */
  async refund(orderId: string, input: { lines?: Array<{ lineItemId: string; quantity: number }>; shipping?: boolean; note?: string }) {
    const order = this.need(orderId);
    const lines = (input.lines ?? []).map((w) => {
      const line = this.lineOf(order, w.lineItemId);
      if (!Number.isSafeInteger(w.quantity) || w.quantity < 1 || w.quantity > current(line))
        throw new OrderActionError(`cannot refund ${w.quantity} of ${line.title}`);
      // The refund of k units: their share of the discounted line total, largest remainder per unit.
      const perUnit = allocate(line.unitPrice * line.quantity - line.discount, Array(line.quantity).fill(1) as number[]);
      const amount = perUnit.slice(line.refunded, line.refunded + w.quantity).reduce((s, x) => s + x, 0);
      return { line, quantity: w.quantity, amount };
    });
    const shippingLeft =
      (order.shippingLine ? order.shippingLine.amount - order.shippingLine.discount : 0) -
      order.refunds.reduce((s, r) => s + r.shipping, 0);
    const shipping = input.shipping ? shippingLeft : 0;
    if (lines.length === 0 && shipping === 0) throw new OrderActionError('nothing to refund');
    for (const l of lines) l.line.refunded += l.quantity;
    const refund: RefundRecord = {
      id: this.nextId('Refund'),
      createdAt: this.stamp(),
      note: input.note ?? null,
      lines: lines.map((l) => ({ lineId: l.line.id, quantity: l.quantity, amount: l.amount })),
      shipping,
      amount: lines.reduce((s, l) => s + l.amount, 0) + shipping,
    };
    order.refunds.push(refund);
    await this.changed(order, { topic: 'refunds/create', payload: this.refundPayload(order, refund) });
    return { order, refund };
  }

  /** Cancels the order: what is not shipped is removed and everything paid is refunded. */
  async cancel(orderId: string, reason = 'CUSTOMER') {
    const order = this.need(orderId);
    if (order.cancelledAt) throw new OrderActionError(`order ${order.name} is already cancelled`);
    if (order.lines.some((l) => l.fulfilled > 0)) throw new OrderActionError(`order ${order.name} has shipped items: refund them instead`);
    for (const l of order.lines) l.removed = current(l);
    order.cancelledAt = this.stamp();
    order.cancelReason = reason;
    const refunded = order.refunds.reduce((s, r) => s + r.amount, 0);
    if (order.totals.total - refunded > 0) {
      order.refunds.push({
        id: this.nextId('Refund'),
        createdAt: order.cancelledAt,
        note: 'Order cancelled',
        lines: [],
        shipping: 0,
        amount: order.totals.total - refunded,
      });
    }
    await this.changed(order, { topic: 'orders/cancelled', payload: this.payload(order) });
    return { order };
  }

  statusPageUrl(order: OrderRecord, origin: string): string {
    return `${origin}/orders/${order.token}`;
  }

  /** The REST-style order payload of orders/* webhooks. */
  payload(order: OrderRecord) {
    const money = (amount: number) => fromMinorUnits(amount, order.currency);
    const refunded = order.refunds.reduce((s, r) => s + r.amount, 0);
    return {
      id: numeric(order.id),
      admin_graphql_api_id: order.id,
      name: order.name,
      email: order.email,
      created_at: order.createdAt,
      updated_at: order.updatedAt,
      cancelled_at: order.cancelledAt,
      cancel_reason: order.cancelReason?.toLowerCase() ?? null,
      currency: order.currency,
      total_price: money(order.totals.total),
      financial_status: refunded === 0 ? 'paid' : refunded >= order.totals.total ? 'refunded' : 'partially_refunded',
      fulfillment_status: fulfillmentStatus(order).toLowerCase(),
      source_name: order.sourceName,
      tags: order.tags.join(', '),
      note_attributes: order.attributes.map((a) => ({ name: a.key, value: a.value })),
      line_items: order.lines.map((l) => ({
        id: numeric(l.id),
        admin_graphql_api_id: l.id,
        variant_id: numeric(this.shop.ids.gid('ProductVariant', l.variantId)),
        product_id: numeric(this.shop.ids.gid('Product', l.productId)),
        title: l.title,
        sku: l.sku,
        quantity: l.quantity,
        current_quantity: current(l),
        fulfillable_quantity: current(l) - l.fulfilled,
        price: money(l.unitPrice),
        properties: l.attributes.map((a) => ({ name: a.key, value: a.value })),
      })),
    };
  }

  private fulfillmentPayload(order: OrderRecord, f: FulfillmentRecord) {
    return {
      id: numeric(f.id),
      admin_graphql_api_id: f.id,
      order_id: numeric(order.id),
      status: 'success',
      shipment_status: f.events.at(-1)?.status.toLowerCase() ?? null,
      created_at: f.createdAt,
      updated_at: f.updatedAt,
      tracking_company: f.tracking.company,
      tracking_number: f.tracking.number,
      tracking_url: f.tracking.url,
      line_items: f.lines.map((l) => ({ id: numeric(l.lineId), admin_graphql_api_id: l.lineId, quantity: l.quantity })),
    };
  }

  private refundPayload(order: OrderRecord, r: RefundRecord) {
    return {
      id: numeric(r.id),
      admin_graphql_api_id: r.id,
      order_id: numeric(order.id),
      created_at: r.createdAt,
      note: r.note,
      refund_line_items: r.lines.map((l) => ({
        line_item_id: numeric(l.lineId),
        quantity: l.quantity,
        subtotal: fromMinorUnits(l.amount, order.currency),
      })),
    };
  }
}

function fulfillmentStatus(order: OrderRecord): string {
  const physical = order.lines.filter((l) => l.requiresShipping && current(l) > 0);
  if (physical.length === 0) return order.fulfillments.length ? 'FULFILLED' : 'FULFILLMENT_NOT_REQUIRED';
  if (physical.every((l) => l.fulfilled >= current(l))) return 'FULFILLED';
  return physical.some((l) => l.fulfilled > 0) ? 'PARTIALLY_FULFILLED' : 'UNFULFILLED';
}

/** The Admin API Order. */
export function orderNode(orders: Orders, shop: ShopData, order: OrderRecord, origin: string) {
  const bag = (amount: number) => moneyBag(amount, order.currency);
  const lineNode = (l: OrderLineRecord) => ({
    __typename: 'LineItem',
    id: l.id,
    title: l.title,
    name: l.variantTitle ? `${l.title} - ${l.variantTitle}` : l.title,
    variantTitle: l.variantTitle,
    sku: l.sku,
    quantity: l.quantity,
    currentQuantity: current(l),
    unfulfilledQuantity: Math.max(0, current(l) - l.fulfilled),
    refundableQuantity: current(l),
    nonFulfillableQuantity: l.removed + l.refunded,
    requiresShipping: l.requiresShipping,
    customAttributes: l.attributes,
    variant: { id: shop.ids.gid('ProductVariant', l.variantId), sku: l.sku, title: l.variantTitle ?? 'Default Title' },
    product: { id: shop.ids.gid('Product', l.productId), title: l.title },
    image: null,
    originalUnitPriceSet: bag(l.unitPrice),
    discountedUnitPriceSet: bag(Math.floor((l.unitPrice * l.quantity - l.discount) / l.quantity)),
    originalTotalSet: bag(l.unitPrice * l.quantity),
    discountedTotalSet: bag(l.unitPrice * l.quantity - l.discount),
    totalDiscountSet: bag(l.discount),
    discountAllocations: l.discount ? [{ allocatedAmountSet: bag(l.discount) }] : [],
  });
  const lineById = new Map(order.lines.map((l) => [l.id, l]));
  const subtotal = order.lines.reduce((s, l) => s + l.unitPrice * l.quantity - l.discount, 0);
  const discounts = order.lines.reduce((s, l) => s + l.discount, 0) + (order.shippingLine?.discount ?? 0);
  const refunded = order.refunds.reduce((s, r) => s + r.amount, 0);
  const shipping = order.shippingLine;
  return {
    __typename: 'Order',
    id: order.id,
    legacyResourceId: String(numeric(order.id)),
    name: order.name,
    createdAt: order.createdAt,
    updatedAt: order.updatedAt,
    processedAt: order.createdAt,
    email: order.email,
    note: null,
    sourceName: order.sourceName,
    tags: order.tags,
    test: true,
    closed: false,
    confirmed: true,
    currencyCode: order.currency,
    presentmentCurrencyCode: order.currency,
    customAttributes: order.attributes,
    discountCodes: order.discountCodes,
    cancelledAt: order.cancelledAt,
    cancelReason: order.cancelReason,
    statusPageUrl: orders.statusPageUrl(order, origin),
    displayFinancialStatus: refunded === 0 ? 'PAID' : refunded >= order.totals.total ? 'REFUNDED' : 'PARTIALLY_REFUNDED',
    displayFulfillmentStatus: fulfillmentStatus(order),
    shippingAddress: order.shippingAddress && mailingAddress(gid('MailingAddress', order.id.split('/').at(-1)!), order.shippingAddress),
    lineItems: (args: ConnectionArgs) => connection(order.lines.map(lineNode), args),
    shippingLines: (args: ConnectionArgs) =>
      connection(
        shipping
          ? [
              {
                id: null,
                title: shipping.title,
                code: shipping.code,
                custom: false,
                isRemoved: false,
                originalPriceSet: bag(shipping.amount),
                discountedPriceSet: bag(shipping.amount - shipping.discount),
                currentDiscountedPriceSet: bag(shipping.amount - shipping.discount),
                taxLines: [],
                discountAllocations: [],
              },
            ]
          : [],
        args,
      ),
    taxLines: order.taxLines.map((t) => ({ title: t.title, priceSet: bag(t.amount), rate: null, ratePercentage: null })),
    subtotalPriceSet: bag(subtotal),
    currentSubtotalPriceSet: bag(subtotal - order.refunds.reduce((s, r) => s + r.lines.reduce((t, l) => t + l.amount, 0), 0)),
    totalDiscountsSet: bag(discounts),
    currentTotalDiscountsSet: bag(discounts),
    totalShippingPriceSet: bag(shipping?.amount ?? 0),
    totalTaxSet: bag(order.totals.tax),
    taxesIncluded: shop.taxesIncluded,
    totalPriceSet: bag(order.totals.total),
    originalTotalPriceSet: bag(order.totals.total),
    currentTotalPriceSet: bag(order.totals.total - refunded),
    totalRefundedSet: bag(refunded),
    totalOutstandingSet: bag(0),
    fulfillments: ({ first }: { first?: number | null }) =>
      order.fulfillments.slice(0, first ?? undefined).map((f) => ({
        __typename: 'Fulfillment',
        id: f.id,
        legacyResourceId: String(numeric(f.id)),
        name: `${order.name}-F${order.fulfillments.indexOf(f) + 1}`,
        createdAt: f.createdAt,
        updatedAt: f.updatedAt,
        status: 'SUCCESS',
        displayStatus: f.displayStatus,
        requiresShipping: true,
        deliveredAt: f.events.find((e) => e.status === 'DELIVERED')?.happenedAt ?? null,
        inTransitAt: f.events.find((e) => e.status === 'IN_TRANSIT')?.happenedAt ?? null,
        estimatedDeliveryAt: null,
        totalQuantity: f.lines.reduce((s, l) => s + l.quantity, 0),
        trackingInfo: ({ first: n }: { first?: number | null }) =>
          (f.tracking.number || f.tracking.company ? [f.tracking] : []).slice(0, n ?? undefined),
        fulfillmentLineItems: (args: ConnectionArgs) =>
          connection(
            f.lines.map((l, i) => ({
              id: gid('FulfillmentLineItem', `${numeric(f.id)}${i}`),
              quantity: l.quantity,
              lineItem: lineNode(lineById.get(l.lineId)!),
            })),
            args,
          ),
        events: (args: ConnectionArgs) =>
          connection(
            f.events.map((e) => ({ ...e, createdAt: e.happenedAt, estimatedDeliveryAt: null })),
            args,
          ),
      })),
    refunds: ({ first }: { first?: number | null }) =>
      order.refunds.slice(0, first ?? undefined).map((r) => ({
        __typename: 'Refund',
        id: r.id,
        legacyResourceId: String(numeric(r.id)),
        createdAt: r.createdAt,
        processedAt: r.createdAt,
        updatedAt: r.createdAt,
        note: r.note,
        totalRefundedSet: bag(r.amount),
        refundLineItems: (args: ConnectionArgs) =>
          connection(
            r.lines.map((l) => ({
              id: null,
              quantity: l.quantity,
              lineItem: lineNode(lineById.get(l.lineId)!),
              priceSet: bag(lineById.get(l.lineId)!.unitPrice),
              subtotalSet: bag(l.amount),
              totalTaxSet: bag(0),
              restockType: 'NO_RESTOCK',
              restocked: false,
            })),
            args,
          ),
      })),
    returns: (args: ConnectionArgs) => connection([], args),
  };
}
