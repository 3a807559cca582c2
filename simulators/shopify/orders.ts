/**
 * Orders: created from a checkout or a completed draft order, paid now or later (payments.ts),
 * moved along by the merchant (mark as paid, capture, fulfillments with tracking and events,
 * refunds, cancellation), and announced by webhook with Shopify's REST-style payloads
 * (order-payloads.ts). The Admin API's Order is order-node.ts.
 */
import { randomBytes } from 'node:crypto';
import type { Quote } from '../../adapters/contract.js';
import { allocate } from '../../adapters/memory/money-math.js';
import { dateTime, gid, gidId } from './graph.js';
import type { DeliveryAddressInput } from './addresses.js';
import type { Attribute } from './carts.js';
import type { DiscountApplicationRecord, PartMoney, QuoteMoney } from './line-money.js';
import { current, fulfillmentPayload, orderPayload, refundPayload } from './order-payloads.js';
import {
  canMarkAsPaid,
  financialStatus,
  markAsPaidTransactions,
  received,
  refunded,
  voidTransactions,
  type PaymentState,
  type TransactionRecord,
} from './payments.js';
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
  /** Discount allocations (every level) and tax shares of the line at checkout. */
  money: PartMoney;
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
  /** Per line: its discounted value refunded (`subtotalSet`) and the tax in it or on it (`totalTaxSet`). */
  lines: Array<{ lineId: string; quantity: number; amount: number; tax: number }>;
  /** Shipping refunded. */
  shipping: number;
  /** Money returned to the buyer (nothing when nothing was received). */
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
  /**
   * The token of the cart the order was placed from (Admin 2026-10 `Order.cartToken`, REST
   * `cart_token`; the cart id is `gid://shopify/Cart/<token>?key=…`); null for an order made
   * from a draft order, which came from no cart.
   */
  cartToken: string | null;
  tags: string[];
  attributes: Attribute[];
  discountCodes: string[];
  applications: DiscountApplicationRecord[];
  lines: OrderLineRecord[];
  shippingAddress: DeliveryAddressInput | null;
  /** The location a local-pickup order is collected at. */
  pickup: { locationId: string; name: string } | null;
  shippingLine: { title: string; code: string; amount: number; money: PartMoney } | null;
  /** Whether the prices (and so the line and shipping amounts) include the tax (`Order.taxesIncluded`). */
  taxesIncluded: boolean;
  taxLines: Array<{ title: string; amount: number }>;
  totals: { tax: number; total: number };
  payment: PaymentState;
  fulfillments: FulfillmentRecord[];
  refunds: RefundRecord[];
  cancelledAt: string | null;
  cancelReason: string | null;
}

type NewTransaction = Omit<TransactionRecord, 'id' | 'createdAt'>;

export interface NewOrder {
  quote: Quote;
  money: QuoteMoney;
  email: string | null;
  sourceName: string;
  /** The cart paid on the hosted checkout (absent: a draft order's). */
  cartToken?: string;
  tags: string[];
  attributes: Attribute[];
  /** Line attributes by quote line id. */
  lineAttributes: Map<string, Attribute[]>;
  shippingAddress: DeliveryAddressInput | null;
  pickup?: { locationId: string; name: string } | null;
  /** The gateway and first transactions (payments.ts); none for a draft completed with payment pending. */
  payment: { gateway: string | null; opening: NewTransaction[] };
}

/** Thrown for a merchant action the order does not allow (answered 422 by the control API). */
export class OrderActionError extends Error {}

const discountOf = (part: PartMoney) => part.allocations.reduce((s, a) => s + a.amount, 0);

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
    return dateTime(this.now());
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

  financialStatus(order: OrderRecord): string {
    return financialStatus(order.payment, order.totals.total);
  }

  private record(order: OrderRecord, transactions: NewTransaction[]): void {
    for (const t of transactions) order.payment.transactions.push({ ...t, id: this.nextId('OrderTransaction'), createdAt: this.stamp() });
  }

  /** Records an order from a final quote and announces it: orders/create, and orders/paid when it is paid already. */
  async create(input: NewOrder): Promise<OrderRecord> {
    const { quote: q, money } = input;
    const n = ++this.sequence;
    const at = this.stamp();
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
      cartToken: input.cartToken ?? null,
      tags: input.tags,
      attributes: input.attributes,
      discountCodes: q.discounts.applied.flatMap((d) => (d.code ? [d.code.toUpperCase()] : [])),
      applications: money.applications,
      lines: q.lines.map((l, i) => ({
        id: gid('LineItem', 17_000_000_000_000 + n * 100 + i),
        variantId: l.variantId,
        productId: l.productId,
        title: l.title,
        variantTitle: l.variantTitle ?? null,
        sku: l.sku ?? null,
        quantity: l.quantity,
        unitPrice: l.unitPrice,
        money: money.lines.get(l.lineId) ?? { allocations: [], tax: [] },
        requiresShipping: l.requiresShipping,
        attributes: input.lineAttributes.get(l.lineId) ?? [],
        fulfilled: 0,
        refunded: 0,
        removed: 0,
      })),
      shippingAddress: input.shippingAddress,
      pickup: input.pickup ?? null,
      shippingLine: option ? { title: option.title, code: option.id, amount: option.amount, money: money.shipping } : null,
      taxesIncluded: this.shop.taxesIncluded,
      taxLines: q.taxLines,
      totals: { tax: q.totals.tax ?? 0, total: q.totals.total },
      payment: { gatewayNames: input.payment.gateway ? [input.payment.gateway] : [], transactions: [] },
      fulfillments: [],
      refunds: [],
      cancelledAt: null,
      cancelReason: null,
    };
    this.record(order, input.payment.opening);
    this.orders.set(order.id, order);
    await this.webhooks.emit('orders/create', this.payload(order));
    if (this.financialStatus(order) === 'PAID') await this.webhooks.emit('orders/paid', this.payload(order));
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

  /** Money now received in full: orders/paid, then orders/updated. */
  private async paymentChanged(order: OrderRecord, wasPaid: boolean): Promise<void> {
    const paid = !wasPaid && this.financialStatus(order) === 'PAID';
    order.updatedAt = this.stamp();
    await this.changed(order, paid ? { topic: 'orders/paid', payload: this.payload(order) } : undefined);
  }

  /**
   * `orderMarkAsPaid`: "An order can be marked as paid only if it has a positive outstanding
   * balance and its financial status isn't already PAID" (Admin 2026-10); userErrors otherwise.
   */
  async markAsPaid(orderId: string): Promise<{ order?: OrderRecord; userErrors: Array<{ field: string[]; message: string }> }> {
    const order = this.orders.get(orderId);
    if (!order) return { userErrors: [{ field: ['input', 'id'], message: 'Order does not exist' }] };
    if (!canMarkAsPaid(order.payment, order.totals.total, !!order.cancelledAt))
      return { order, userErrors: [{ field: ['input', 'id'], message: 'Order cannot be marked as paid.' }] };
    const wasPaid = this.financialStatus(order) === 'PAID';
    this.record(order, markAsPaidTransactions(order.payment, order.totals.total));
    await this.paymentChanged(order, wasPaid);
    return { order, userErrors: [] };
  }

  /** The merchant captures an authorized payment (manual capture): the order becomes PAID. */
  async capture(orderId: string) {
    const order = this.need(orderId);
    if (this.financialStatus(order) !== 'AUTHORIZED') throw new OrderActionError(`order ${order.name} has nothing to capture`);
    this.record(order, markAsPaidTransactions(order.payment, order.totals.total));
    await this.paymentChanged(order, false);
    return { order };
  }

  /** The payment provider confirms a pending (offsite) payment: the pending sale succeeds. */
  async settle(orderId: string) {
    const order = this.need(orderId);
    const pending = order.payment.transactions.find((t) => t.kind === 'SALE' && t.status === 'PENDING' && !t.manual);
    if (!pending) throw new OrderActionError(`order ${order.name} has no pending payment from a provider`);
    const wasPaid = this.financialStatus(order) === 'PAID';
    pending.status = 'SUCCESS';
    await this.paymentChanged(order, wasPaid);
    return { order };
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
    await this.changed(order, { topic: 'fulfillments/create', payload: fulfillmentPayload(this.shop, order, fulfillment) });
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
    await this.changed(order, { topic: 'fulfillments/update', payload: fulfillmentPayload(this.shop, order, fulfillment) });
    return { order, fulfillment };
  }

  /** What can still be returned to the buyer: money received less money refunded. */
  private refundable(order: OrderRecord): number {
    return received(order.payment) - refunded(order.payment);
  }

  private async refundMoney(order: OrderRecord, amount: number): Promise<number> {
    const money = Math.min(amount, this.refundable(order));
    if (money > 0) {
      const gateway = order.payment.transactions.find(
        (t) => t.status === 'SUCCESS' && (t.kind === 'SALE' || t.kind === 'CAPTURE'),
      )!.gateway;
      this.record(order, [{ kind: 'REFUND', status: 'SUCCESS', amount: money, gateway, manual: gateway === 'manual', parentId: null }]);
    }
    return money;
  }

  /** Refunds lines (their discounted value) and optionally the shipping: refunds/create. Only money received goes back. */
  async refund(orderId: string, input: { lines?: Array<{ lineItemId: string; quantity: number }>; shipping?: boolean; note?: string }) {
    const order = this.need(orderId);
    const lines = (input.lines ?? []).map((w) => {
      const line = this.lineOf(order, w.lineItemId);
      if (!Number.isSafeInteger(w.quantity) || w.quantity < 1 || w.quantity > current(line))
        throw new OrderActionError(`cannot refund ${w.quantity} of ${line.title}`);
      // The refund of k units: their share of the discounted line total and of its tax, largest remainder per unit.
      const units = Array(line.quantity).fill(1) as number[];
      const share = (total: number) =>
        allocate(total, units)
          .slice(line.refunded, line.refunded + w.quantity)
          .reduce((s, x) => s + x, 0);
      const amount = share(line.unitPrice * line.quantity - discountOf(line.money));
      const tax = share(line.money.tax.reduce((s, t) => s + t.amount, 0));
      // Tax added on top is refunded with the line; included tax is already part of its price.
      return { line, quantity: w.quantity, amount, tax, money: amount + (order.taxesIncluded ? 0 : tax) };
    });
    const shippingLeft =
      (order.shippingLine ? order.shippingLine.amount - discountOf(order.shippingLine.money) : 0) -
      order.refunds.reduce((s, r) => s + r.shipping, 0);
    const shipping = input.shipping ? shippingLeft : 0;
    if (lines.length === 0 && shipping === 0) throw new OrderActionError('nothing to refund');
    for (const l of lines) l.line.refunded += l.quantity;
    const shippingTax = shipping > 0 && !order.taxesIncluded ? (order.shippingLine?.money.tax.reduce((s, t) => s + t.amount, 0) ?? 0) : 0;
    const wanted = lines.reduce((s, l) => s + l.money, 0) + shipping + shippingTax;
    const refund: RefundRecord = {
      id: this.nextId('Refund'),
      createdAt: this.stamp(),
      note: input.note ?? null,
      lines: lines.map((l) => ({ lineId: l.line.id, quantity: l.quantity, amount: l.amount, tax: l.tax })),
      shipping,
      amount: await this.refundMoney(order, wanted),
    };
    order.refunds.push(refund);
    await this.changed(order, { topic: 'refunds/create', payload: refundPayload(this.shop, order, refund) });
    return { order, refund };
  }

  /** Cancels the order: what is not shipped is removed, money received is refunded, open payments are voided. */
  async cancel(orderId: string, reason = 'CUSTOMER') {
    const order = this.need(orderId);
    if (order.cancelledAt) throw new OrderActionError(`order ${order.name} is already cancelled`);
    if (order.lines.some((l) => l.fulfilled > 0)) throw new OrderActionError(`order ${order.name} has shipped items: refund them instead`);
    for (const l of order.lines) l.removed = current(l);
    order.cancelledAt = this.stamp();
    order.cancelReason = reason;
    this.record(order, voidTransactions(order.payment));
    const left = this.refundable(order);
    if (left > 0) {
      order.refunds.push({
        id: this.nextId('Refund'),
        createdAt: order.cancelledAt,
        note: 'Order cancelled',
        lines: [],
        shipping: 0,
        amount: await this.refundMoney(order, left),
      });
    }
    await this.changed(order, { topic: 'orders/cancelled', payload: this.payload(order) });
    return { order };
  }

  statusPageUrl(order: OrderRecord, origin: string): string {
    return `${origin}/orders/${order.token}`;
  }

  payload(order: OrderRecord) {
    return orderPayload(this.shop, order, this.financialStatus(order));
  }
}
