/**
 * The reference store's orders: placed from a cart once per reference (the gateway's checkout
 * id, which the store keeps when the client sends it) and once per cart (an ordered cart answers
 * with its order), then moved along by the merchant (shipped, delivered, cancelled, refunded).
 * Every change bumps `updatedAt` and is announced as a signed webhook. A card whose issuer asks
 * the buyer to confirm (`action_required_token`) is not charged here: the store opens a payment
 * the buyer confirms on its page (payments.ts), which places the order once approved.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { Quote } from '../../adapters/contract.js';
import type { Location } from '../../adapters/memory/model.js';
import { lineIdOf, type CartRecord } from './carts.js';

type OrderStatus = 'paid' | 'shipped' | 'delivered' | 'cancelled' | 'refunded';

export interface StoreOrder {
  id: string;
  reference?: string;
  /** The cart it was placed from: how a client that keeps no reference finds it (`GET /orders?cart_id=`). */
  cartId: string;
  /** The payment the buyer confirmed on the store's page, when the card needed it. */
  paymentId?: string;
  status: OrderStatus;
  currency: string;
  placedAt: string;
  updatedAt: string;
  customer: { email: string; first_name?: string; last_name?: string };
  shipTo?: Record<string, string>;
  delivery?: { method: 'shipping' | 'pickup'; rate_id: string; rate_label: string; ready: string | null };
  /** The shop it is collected at (a pickup order): its address as the store writes addresses. */
  pickupAt?: { location_id: string; name: string; address: Record<string, string> };
  lines: Array<{
    lineId: string;
    /** The client's line ref (the gateway's checkout line id). */
    lineRef?: string;
    variantId: string;
    itemId: string;
    name: string;
    sku?: string;
    picture?: string;
    unitPrice: number;
    qty: number;
    ships: boolean;
    qtyShipped: number;
    qtyCancelled: number;
    discount: number;
  }>;
  shipments: Array<{
    id: string;
    at: string;
    status: 'shipped' | 'in_transit' | 'delivered';
    carrier: string;
    trackingNo: string;
    trackingLink: string;
    lines: Array<{ lineId: string; qty: number }>;
  }>;
  refunds: Array<{ id: string; at: string; amount: number; note?: string }>;
  cancelledAt?: string;
  payment: { kind: 'prepaid' | 'card'; ref: string };
  totals: {
    items: number;
    itemDiscounts: number;
    otherDiscounts: number;
    shipping: number;
    tax: number;
    /** Tax the prices contain (a store whose prices include tax); 0 otherwise. */
    taxIncluded: number;
    grandTotal: number;
  };
  taxLines: Array<{ name: string; amount: number; included: boolean }>;
}

const Text = Type.String({ minLength: 1, maxLength: 500 });

/** What the merchant does to an order (POST /orders/{id}/events). */
export const OrderEventInput = Type.Union([
  Type.Object(
    {
      type: Type.Literal('shipped'),
      carrier: Type.Optional(Text),
      tracking_no: Type.Optional(Text),
      lines: Type.Optional(
        Type.Array(Type.Object({ line_id: Text, qty: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }), { minItems: 1 }),
      ),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    { type: Type.Union([Type.Literal('in_transit'), Type.Literal('delivered'), Type.Literal('cancelled')]) },
    { additionalProperties: false },
  ),
  Type.Object(
    { type: Type.Literal('refunded'), amount: Type.String({ pattern: '^\\d+(\\.\\d+)?$' }), note: Type.Optional(Text) },
    { additionalProperties: false },
  ),
]);
export type OrderEventInput = Static<typeof OrderEventInput>;

export class OrderEventError extends Error {}

export type Payment = { kind: 'prepaid'; processor_ref: string } | { kind: 'card'; token: string };

export type PlaceOutcome =
  | { status: 'placed'; order: StoreOrder; created: boolean }
  | { status: 'sold_out' | 'incomplete'; message: string }
  | { status: 'total_mismatch'; actual: number }
  | { status: 'declined' }
  /** The card's issuer asks the buyer to confirm: nothing is charged or placed until they do. */
  | { status: 'confirm' };

/** Card tokens of the demo instruments (config/demo/payment_instruments.csv), and the one its issuer challenges. */
const CARD_OUTCOMES: Record<string, 'paid' | 'declined' | 'confirm'> = {
  success_token: 'paid',
  fail_token: 'declined',
  action_required_token: 'confirm',
};

export class OrderBook {
  private readonly orders = new Map<string, StoreOrder>();
  private readonly byReference = new Map<string, string>();
  private next = 1001;

  constructor(
    private readonly now: () => number,
    /** The shops orders may be collected at. */
    private readonly locations: readonly Location[] = [],
  ) {}

  /** A shop as an order names it, the address in the store's own field names. */
  private locationOf(id: string): StoreOrder['pickupAt'] {
    const found = this.locations.find((l) => l.location.id === id)?.location;
    if (!found) return undefined;
    const a = found.address;
    const address = { line1: a.streetAddress, city: a.locality, state: a.region, zip: a.postalCode, country: a.country };
    return {
      location_id: found.id,
      name: found.name,
      address: Object.fromEntries(Object.entries(address).filter((e): e is [string, string] => typeof e[1] === 'string')),
    };
  }

  private stamp(): string {
    return new Date(this.now()).toISOString();
  }

  get(id: string): StoreOrder | undefined {
    return this.orders.get(id);
  }

  findByReference(reference: string): StoreOrder | undefined {
    const id = this.byReference.get(reference);
    return id === undefined ? undefined : this.orders.get(id);
  }

  findByCart(cartId: string): StoreOrder | undefined {
    return [...this.orders.values()].find((o) => o.cartId === cartId);
  }

  /** Orders changed at or after `since`, oldest change first. */
  changedSince(since: number): StoreOrder[] {
    return [...this.orders.values()]
      .filter((o) => Date.parse(o.updatedAt) >= since)
      .sort((a, b) => Date.parse(a.updatedAt) - Date.parse(b.updatedAt));
  }

  /**
   * Places the cart's order once per reference. `priced` is the cart priced now; `expectedTotal`
   * (when given) must match it. The hosted checkout page places with no expectation.
   */
  place(
    cart: CartRecord,
    priced: Quote,
    request: { reference?: string; expectedTotal?: number; customer: StoreOrder['customer']; payment: Payment; confirmed?: string },
  ): PlaceOutcome {
    const reference = request.reference ?? cart.reference;
    const ordered = cart.orderId === undefined ? undefined : this.orders.get(cart.orderId);
    const existing = ordered ?? (reference === undefined ? undefined : this.findByReference(reference));
    if (existing) return { status: 'placed', order: existing, created: false };
    if (priced.lineProblems.length > 0 || priced.lines.length === 0) {
      return {
        status:
          priced.lineProblems.some((p) => p.code === 'not_found' || p.code === 'invalid_quantity') || priced.lines.length === 0
            ? 'incomplete'
            : 'sold_out',
        message: 'a line cannot be sold as requested',
      };
    }
    const group = priced.fulfillment?.[0]?.groups[0];
    const ships = priced.lines.some((l) => l.requiresShipping);
    const rate = group?.options.find((o) => o.id === group.selectedOptionId);
    if (ships && !rate) return { status: 'incomplete', message: 'choose a shipping rate first' };
    if (request.expectedTotal !== undefined && request.expectedTotal !== priced.totals.total)
      return { status: 'total_mismatch', actual: priced.totals.total };
    const card = request.payment.kind === 'card' ? (CARD_OUTCOMES[request.payment.token] ?? 'declined') : 'paid';
    // `confirmed`: the payment the buyer confirmed on the store's page (payments.ts).
    if (card === 'confirm' && request.confirmed === undefined) return { status: 'confirm' };
    if (card === 'declined') return { status: 'declined' };

    const id = String(this.next++);
    const now = this.stamp();
    const allocations = priced.discounts.applied.flatMap((d) => d.allocations);
    const lineDiscount = (ref: string) =>
      allocations.filter((a) => a.target.kind === 'line' && a.target.lineId === ref).reduce((s, a) => s + a.amount, 0);
    const shipTo = cart.input.pickup_at ? undefined : cart.input.ship_to;
    const pickupAt = cart.input.pickup_at === undefined ? undefined : this.locationOf(cart.input.pickup_at);
    // The client's reference of each line (a line-API line without one keeps the store's id).
    const refOf = new Map(cart.input.lines.map((l, i) => [lineIdOf(l, i), l.line_ref]));
    const order: StoreOrder = {
      id,
      ...(reference !== undefined && { reference }),
      cartId: cart.id,
      ...(request.confirmed !== undefined && { paymentId: request.confirmed }),
      status: 'paid',
      currency: priced.currency,
      placedAt: now,
      updatedAt: now,
      customer: request.customer,
      ...(shipTo && { shipTo: Object.fromEntries(Object.entries(shipTo).filter((e): e is [string, string] => typeof e[1] === 'string')) }),
      ...(pickupAt && { pickupAt }),
      ...(rate && {
        delivery: {
          method: pickupAt ? 'pickup' : 'shipping',
          rate_id: rate.id,
          rate_label: rate.title,
          ready: priced.lines.find((l) => l.requiresShipping)?.fulfillableOn ?? null,
        },
      }),
      lines: priced.lines.map((l, i) => ({
        lineId: `${id}-${i + 1}`,
        lineRef: refOf.get(l.lineId) ?? l.lineId,
        variantId: l.variantId,
        itemId: l.productId,
        name: l.title,
        ...(l.sku && { sku: l.sku }),
        ...(l.imageUrl && { picture: l.imageUrl }),
        unitPrice: l.unitPrice,
        qty: l.quantity,
        ships: l.requiresShipping,
        // Digital goods are handed over when paid.
        qtyShipped: l.requiresShipping ? 0 : l.quantity,
        qtyCancelled: 0,
        discount: lineDiscount(l.lineId),
      })),
      shipments: [],
      refunds: [],
      payment:
        request.payment.kind === 'prepaid' ? { kind: 'prepaid', ref: request.payment.processor_ref } : { kind: 'card', ref: `ch_${id}` },
      totals: {
        items: priced.totals.subtotal,
        itemDiscounts: priced.totals.itemsDiscount,
        otherDiscounts: priced.totals.discount,
        shipping: priced.totals.shipping ?? 0,
        tax: priced.totals.tax ?? 0,
        taxIncluded: priced.totals.includedTax ?? 0,
        grandTotal: priced.totals.total,
      },
      taxLines: priced.taxLines.map((t) => ({ name: t.title, amount: t.amount, included: t.included === true })),
    };
    this.orders.set(id, order);
    if (reference !== undefined) this.byReference.set(reference, id);
    cart.orderId = id;
    return { status: 'placed', order, created: true };
  }

  /** Applies a merchant event; throws OrderEventError when it does not fit the order. */
  apply(order: StoreOrder, event: OrderEventInput, toMinor: (decimal: string) => number): StoreOrder {
    const at = this.stamp();
    const open = order.lines.map((l) => ({ line: l, left: l.qty - l.qtyShipped - l.qtyCancelled })).filter((o) => o.left > 0);
    if (order.status === 'cancelled' && event.type !== 'refunded') throw new OrderEventError('the order is cancelled');
    switch (event.type) {
      case 'shipped': {
        const wanted = event.lines ?? open.map((o) => ({ line_id: o.line.lineId, qty: o.left }));
        for (const w of wanted) {
          const line = open.find((o) => o.line.lineId === w.line_id);
          if (!line || w.qty > line.left) throw new OrderEventError(`line ${w.line_id} has no ${w.qty} unshipped units`);
        }
        if (wanted.length === 0) throw new OrderEventError('nothing left to ship');
        for (const w of wanted) order.lines.find((l) => l.lineId === w.line_id)!.qtyShipped += w.qty;
        const n = order.shipments.length + 1;
        const trackingNo = event.tracking_no ?? `1Z${order.id}${String(n).padStart(4, '0')}`;
        order.shipments.push({
          id: `${order.id}-s${n}`,
          at,
          status: 'shipped',
          carrier: event.carrier ?? 'UPS',
          trackingNo,
          trackingLink: `https://tracking.example/${encodeURIComponent(trackingNo)}`,
          lines: wanted.map((w) => ({ lineId: w.line_id, qty: w.qty })),
        });
        order.status = 'shipped';
        break;
      }
      case 'in_transit':
      case 'delivered': {
        const last = order.shipments.at(-1);
        if (!last) throw new OrderEventError('nothing was shipped yet');
        order.shipments.push({ ...last, id: `${order.id}-s${order.shipments.length + 1}`, at, status: event.type });
        if (event.type === 'delivered') order.status = 'delivered';
        break;
      }
      case 'cancelled':
        if (open.length === 0) throw new OrderEventError('everything was shipped already');
        for (const o of open) o.line.qtyCancelled += o.left;
        order.cancelledAt = at;
        order.status = 'cancelled';
        break;
      case 'refunded': {
        const amount = toMinor(event.amount);
        const refunded = order.refunds.reduce((s, r) => s + r.amount, 0);
        if (amount <= 0 || refunded + amount > order.totals.grandTotal)
          throw new OrderEventError('a refund must be positive and at most what is left');
        order.refunds.push({ id: `${order.id}-r${order.refunds.length + 1}`, at, amount, ...(event.note && { note: event.note }) });
        if (refunded + amount === order.totals.grandTotal) order.status = 'refunded';
        break;
      }
    }
    order.updatedAt = at;
    return order;
  }
}
