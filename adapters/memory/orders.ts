/**
 * Orders of the demo store, kept in the gateway's state store (namespaced by tenant) so that every
 * replica sees the same orders. An order is placed once per reference: the order is written under
 * its own key first, then the reference is claimed with setIfAbsent; a caller that loses the race
 * removes its copy and answers with the winner's order.
 *
 * A store that keeps no reference of the gateway (`keepsReference` false, the tenant's
 * `order_links` without `reference`) still places once per reference (its API's idempotency
 * key), but its orders, webhooks and change log do not carry it, and it finds orders only by the
 * store reference it named (the cart of a checkout page, a payment).
 */
import { randomBytes } from 'node:crypto';
import type {
  FulfillmentExpectation,
  OrderChange,
  OrderLinks,
  OrderSnapshot,
  PlaceOrderRequest,
  PlaceOrderResult,
  Quote,
} from '../contract.js';
import type { AdapterStore } from '../contract.js';
import type { StoreData } from './model.js';
import { cardOutcome } from './payments.js';
import { quote } from './quote.js';

/** What the store keeps per order: the snapshot plus what only the simulation needs. */
export interface StoredOrder {
  snapshot: OrderSnapshot;
  /** Carrier of the selected shipping option, for simulated shipments. */
  carrier?: string;
  /** Ids of return adjustments that were received. */
  completedReturns: string[];
  /** Placed and paid on the storefront (a handed-off checkout), not through the API. */
  paidOnStore?: boolean;
}

export interface OrderBookOptions {
  store: AdapterStore;
  tenantId: string;
  retentionMs: number;
  now: () => number;
  /** The orders carry the gateway's reference (else only store references link them). */
  keepsReference: boolean;
}

/** How an order comes to be placed besides its request. */
export interface Placing {
  /** Placed and paid on the storefront (a handed-off checkout, a confirmed payment), not through the API. */
  paidOnStore?: boolean;
  /** The store-side object it comes from (the cart of a checkout page, a payment). */
  storeReference?: string;
}

const CAS_ATTEMPTS = 20;

/** How many recent changes the change log keeps (`ordersChangedSince`); the demo store is small. */
const CHANGE_LOG_SIZE = 500;

export class OrderBook {
  constructor(private readonly options: OrderBookOptions) {}

  private key(kind: 'order' | 'ref' | 'store-ref' | 'changes', id: string): string {
    return `adapter:memory:${this.options.tenantId}:${kind}:${id}`;
  }

  /**
   * Orders placed on the storefront that changed since `since` (epoch ms, inclusive), oldest
   * first, the latest change of each. Orders placed through the API are not logged: the gateway
   * placed them, and their changes reach it from the simulation; one hot key stays off the
   * order path under load.
   */
  async changedSince(since: number): Promise<OrderChange[]> {
    const log = (await this.options.store.get<OrderChange[]>(this.key('changes', 'log')))?.value ?? [];
    const latest = new Map<string, OrderChange>();
    for (const change of log) if (Date.parse(change.updatedAt) >= since) latest.set(change.orderId, change);
    return [...latest.values()].sort((a, b) => a.updatedAt.localeCompare(b.updatedAt));
  }

  private async logChange(order: OrderSnapshot): Promise<void> {
    const { store, retentionMs, now } = this.options;
    const updatedAt = new Date(now()).toISOString();
    const change: OrderChange = {
      orderId: order.id,
      ...(order.reference && { reference: order.reference }),
      ...(order.storeReference && { storeReference: order.storeReference }),
      updatedAt,
    };
    for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt += 1) {
      const current = await store.get<OrderChange[]>(this.key('changes', 'log'));
      const next = [...(current?.value ?? []), change].slice(-CHANGE_LOG_SIZE);
      if ((await store.compareAndSet(this.key('changes', 'log'), current?.version ?? 0, next, retentionMs)) !== null) return;
    }
  }

  /** The order placed for `reference` (the API's idempotency key); see `find` for what the store answers the gateway. */
  private async placedFor(reference: string): Promise<{ orderId: string } | null> {
    return (await this.options.store.get<{ orderId: string }>(this.key('ref', reference)))?.value ?? null;
  }

  /** The order for a checkout: by its store reference, or by the reference when the store keeps it. */
  async find(reference: string, links: OrderLinks = {}): Promise<{ orderId: string } | null> {
    const { store } = this.options;
    const byStore = links.storeReference && (await store.get<{ orderId: string }>(this.key('store-ref', links.storeReference)))?.value;
    if (byStore) return byStore;
    return this.options.keepsReference ? this.placedFor(reference) : null;
  }

  async get(orderId: string): Promise<StoredOrder | null> {
    return (await this.options.store.get<StoredOrder>(this.key('order', orderId)))?.value ?? null;
  }

  /** Why the store would not place `request` now, whatever pays for it (`place`'s checks but the payment's), or null. */
  orderRefusal(data: StoreData, request: PlaceOrderRequest): PlaceOrderResult | null {
    return refusal(quote(data, request.quote, this.options.now()), request, true);
  }

  async place(data: StoreData, request: PlaceOrderRequest, placing: Placing = {}): Promise<PlaceOrderResult> {
    const existing = await this.placedFor(request.reference);
    if (existing) return { status: 'placed', ...existing };

    const now = this.options.now();
    const q = quote(data, request.quote, now);
    const { paidOnStore = false, storeReference } = placing;
    const refused = refusal(q, request, paidOnStore);
    if (refused) return refused;

    const orderId = `ord_${randomBytes(8).toString('hex')}`;
    const { store, retentionMs } = this.options;
    const order = { ...this.build(data, orderId, q, request, now, storeReference), ...(paidOnStore && { paidOnStore }) };
    await store.set(this.key('order', orderId), order, retentionMs);
    if (!(await store.setIfAbsent(this.key('ref', request.reference), { orderId }, retentionMs))) {
      await store.delete(this.key('order', orderId));
      const winner = await this.placedFor(request.reference);
      if (!winner) throw new Error(`order reference ${request.reference} vanished while placing`);
      return { status: 'placed', ...winner };
    }
    if (storeReference) await store.set(this.key('store-ref', storeReference), { orderId }, retentionMs);
    if (paidOnStore) await this.logChange(order.snapshot);
    return { status: 'placed', orderId };
  }

  /** Applies `change` atomically (compare-and-set, retried on conflict) and returns the new order. */
  async update(orderId: string, change: (order: StoredOrder) => StoredOrder): Promise<StoredOrder | null> {
    const { store, retentionMs } = this.options;
    for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt += 1) {
      const current = await store.get<StoredOrder>(this.key('order', orderId));
      if (!current) return null;
      const next = change(current.value);
      if ((await store.compareAndSet(this.key('order', orderId), current.version, next, retentionMs)) !== null) {
        if (next.paidOnStore) await this.logChange(next.snapshot);
        return next;
      }
    }
    throw new Error(`order ${orderId} is changing too fast to update`);
  }

  private build(data: StoreData, orderId: string, q: Quote, request: PlaceOrderRequest, now: number, storeReference?: string): StoredOrder {
    const lineDiscount = new Map<string, number>();
    for (const a of q.discounts.applied.flatMap((d) => d.allocations)) {
      if (a.target.kind === 'line') lineDiscount.set(a.target.lineId, (lineDiscount.get(a.target.lineId) ?? 0) + a.amount);
    }
    const { expectations, carrier } = expectationsOf(data, q, request);
    const { subtotal, itemsDiscount, discount, shipping, tax, includedTax, total } = q.totals;
    return {
      snapshot: {
        id: orderId,
        ...(this.options.keepsReference && { reference: request.reference }),
        ...(storeReference && { storeReference }),
        currency: q.currency,
        createdAt: new Date(now).toISOString(),
        lines: q.lines.map((l) => ({
          id: l.lineId,
          variantId: l.variantId,
          productId: l.productId,
          title: l.variantTitle ? `${l.title} (${l.variantTitle})` : l.title,
          ...(l.sku && { sku: l.sku }),
          unitPrice: l.unitPrice,
          ...(l.imageUrl && { imageUrl: l.imageUrl }),
          quantity: { original: l.quantity, current: l.quantity, fulfilled: 0 },
          subtotal: l.subtotal,
          discount: lineDiscount.get(l.lineId) ?? 0,
        })),
        expectations,
        events: [],
        adjustments: [],
        totals: {
          subtotal,
          itemsDiscount,
          discount,
          shipping: shipping ?? 0,
          tax: tax ?? 0,
          ...(includedTax !== undefined && { includedTax }),
          total,
        },
        ...(q.taxLines.length > 0 && { taxLines: q.taxLines }),
        ...(request.quote.identity && { customerId: request.quote.identity.customerId }),
        buyerEmail: request.buyer.email,
      },
      ...(carrier && { carrier }),
      completedReturns: [],
    };
  }
}

/** Why the store will not place this quote, or null; `paid`: the payment is not the request's to judge (paid on the store). */
function refusal(q: Quote, request: PlaceOrderRequest, paid: boolean): PlaceOrderResult | null {
  const reject = (reason: 'price_changed' | 'out_of_stock' | 'incomplete', detail: string) => ({
    status: 'rejected' as const,
    reason,
    detail,
  });
  const unknown = q.lineProblems.filter((p) => p.code === 'not_found' || p.code === 'invalid_quantity');
  if (unknown.length)
    return reject(
      'incomplete',
      `lines ${unknown.map((p) => p.lineId).join(', ')} cannot be sold (${unknown.map((p) => p.code).join(', ')})`,
    );
  if (q.lineProblems.length) return reject('out_of_stock', `not enough stock for lines ${q.lineProblems.map((p) => p.lineId).join(', ')}`);
  if (q.lines.length === 0) return reject('incomplete', 'the order has no lines');
  const covered = new Set((q.fulfillment ?? []).flatMap((m) => m.groups.filter((g) => g.selectedOptionId).flatMap((g) => g.lineIds)));
  const uncovered = q.lines.filter((l) => l.requiresShipping && !covered.has(l.lineId));
  if (uncovered.length)
    return reject('incomplete', `no fulfillment option selected for lines ${uncovered.map((l) => l.lineId).join(', ')}`);
  if (q.totals.total !== request.expectedTotal) {
    return { ...reject('price_changed', `the total is now ${q.totals.total}, not ${request.expectedTotal}`), actualTotal: q.totals.total };
  }
  if (paid) return null;
  if (request.payment.mode === 'store_charged') {
    // A challenge never reaches here (the adapter opens a payment for it): anything but a charge is declined.
    const charged = cardOutcome(request.payment.credential.token) === 'charged';
    return charged ? null : { status: 'rejected', reason: 'payment_declined', detail: 'the card was declined' };
  }
  const captured = request.payment.record.amount;
  if (captured !== q.totals.total) return reject('incomplete', `the payment of ${captured} does not cover the total of ${q.totals.total}`);
  return null;
}

/** `now`, the latest preorder date, or null when some line's date is unknown. */
function latestFulfillable(dates: Array<string | null>): string | null {
  if (dates.includes(null)) return null;
  const days = dates.filter((d): d is string => d !== 'now').sort();
  return days.at(-1) ?? 'now';
}

function expectationsOf(
  data: StoreData,
  q: Quote,
  request: PlaceOrderRequest,
): { expectations: FulfillmentExpectation[]; carrier?: string } {
  const lines = new Map(q.lines.map((l) => [l.lineId, l]));
  const requested = new Map((request.quote.fulfillment?.methods ?? []).map((m) => [m.methodId, m]));
  const expectations: FulfillmentExpectation[] = [];
  let carrier: string | undefined;
  for (const method of q.fulfillment ?? []) {
    for (const group of method.groups) {
      const option = group.options.find((o) => o.id === group.selectedOptionId)!;
      const requestedDestination = requested.get(method.methodId)?.destination;
      const destination = !requestedDestination
        ? undefined
        : 'address' in requestedDestination
          ? requestedDestination.address
          : data.locations.find((l) => l.location.id === requestedDestination.locationId)?.location.address;
      carrier ??= option.carrier;
      expectations.push({
        id: `exp_${expectations.length + 1}`,
        lines: group.lineIds.map((id) => ({ id, quantity: lines.get(id)!.quantity })),
        method: method.type,
        ...(destination && { destination }),
        description: [option.title, option.description].filter(Boolean).join(': '),
        fulfillableOn: latestFulfillable(group.lineIds.map((id) => lines.get(id)!.fulfillableOn)),
      });
    }
  }
  const digital = q.lines.filter((l) => !l.requiresShipping);
  if (digital.length) {
    expectations.push({
      id: `exp_${expectations.length + 1}`,
      lines: digital.map((l) => ({ id: l.lineId, quantity: l.quantity })),
      method: 'digital',
      description: `Sent by email to ${request.buyer.email}`,
      fulfillableOn: 'now',
    });
  }
  return { expectations, ...(carrier && { carrier }) };
}
