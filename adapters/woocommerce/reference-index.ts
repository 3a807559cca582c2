/**
 * Which store order a checkout reference became, kept in the gateway's state store (every
 * replica sees it): a claim before the store call, then the order once it is paid, or the store's
 * unpaid order the reference made (a card waiting for 3-D Secure, a payment still processing, a
 * gateway_charged order not marked paid yet) for the next attempt to look at first.
 *
 * An attempt whose answer was lost left an order the index does not name: it is found among the
 * store's orders created since the first claim (`GET wc/v3/orders?after=…&dates_are_gmt=true`,
 * every page), by the `_proto_reference` meta the order carries. WooCommerce's `search` never
 * reads custom meta, so the orders are read and matched here. `after` is the UTC time written
 * without an offset and `dates_are_gmt` set: WooCommerce compares it with the GMT creation date
 * (Version3/class-wc-rest-crud-controller.php prepare_objects_query); without the flag it would
 * take the value as the site's wall clock, and west of UTC miss every order just placed. A
 * checkout draft (the Store API's order before payment, left behind by a checkout that failed
 * validation) or an unpaid cancelled order is no order of the reference.
 */
import { Type } from '@sinclair/typebox';
import type { AdapterStore } from '../contract.js';
import { unexpected, type WooHttp } from './http.js';
import { isPaid, referenceOf } from './order-map.js';
import { expectShape } from './wc-shapes.js';

const INDEX_TTL_MS = 90 * 86_400_000;
/** How far before the first claim the store's clock may be: orders created since then are read. */
const CLOCK_SLACK_MS = 5 * 60_000;
const PER_PAGE = 100;

interface IndexEntry {
  orderId?: string;
  /** The paid order's key, for its order-received page (absent on entries written before it was kept). */
  orderKey?: string;
  /** When the current attempt claimed the reference (0: released, the next attempt may go). */
  claimedAt: number;
  /** When the first attempt claimed it: no order of the reference is older. */
  since: number;
  /** The store's unpaid order of the reference, as the last attempt left it. */
  storeOrderId?: string;
}

/** What the index reads of an order: `_fields` keeps the answers small. */
const OrderRef = Type.Object({
  id: Type.Integer(),
  status: Type.String(),
  order_key: Type.String(),
  date_paid_gmt: Type.Union([Type.String(), Type.Null()]),
  meta_data: Type.Array(Type.Object({ key: Type.String(), value: Type.Unknown() })),
});
const OrderRefs = Type.Array(OrderRef);
const FIELDS = 'id,status,order_key,date_paid_gmt,meta_data';

export interface StoreOrder {
  orderId: string;
  orderKey: string;
  status: string;
  paid: boolean;
}

const storeOrder = (o: { id: number; status: string; order_key: string; date_paid_gmt: string | null }): StoreOrder => ({
  orderId: String(o.id),
  orderKey: o.order_key,
  status: o.status,
  paid: isPaid(o),
});

/** Orders that do not count as the reference's: drafts before payment, trashed ones, unpaid cancelled ones. */
const counts = (o: StoreOrder) => o.paid || !['checkout-draft', 'trash', 'cancelled'].includes(o.status);

export interface IndexDeps {
  http: WooHttp;
  state: AdapterStore;
  tenantId: string;
  now: () => number;
}

export type Claim = { claimed: true } | { claimed: false; entry: IndexEntry };

export class ReferenceIndex {
  constructor(private readonly deps: IndexDeps) {}

  private key(reference: string): string {
    return `adapter:woocommerce:${this.deps.tenantId}:reference:${reference}`;
  }

  async get(reference: string): Promise<IndexEntry | undefined> {
    return (await this.deps.state.get<IndexEntry>(this.key(reference)))?.value;
  }

  async claim(reference: string): Promise<Claim> {
    const now = this.deps.now();
    if (await this.deps.state.setIfAbsent<IndexEntry>(this.key(reference), { claimedAt: now, since: now }, INDEX_TTL_MS)) {
      return { claimed: true };
    }
    const entry = await this.get(reference);
    // Gone between the two calls (released): claim afresh.
    return entry ? { claimed: false, entry } : this.claim(reference);
  }

  /** A new attempt takes over a claim whose attempt is over. */
  async relet(reference: string, entry: IndexEntry): Promise<void> {
    await this.deps.state.set<IndexEntry>(this.key(reference), { ...entry, claimedAt: this.deps.now() }, INDEX_TTL_MS);
  }

  async remember(reference: string, order: { orderId: string; orderKey: string }): Promise<void> {
    const now = this.deps.now();
    const { orderId, orderKey } = order;
    await this.deps.state.set<IndexEntry>(this.key(reference), { orderId, orderKey, claimedAt: now, since: now }, INDEX_TTL_MS);
  }

  /** The store made `storeOrderId` for the reference and waits for its payment; the claim stays. */
  async waiting(reference: string, storeOrderId: string): Promise<void> {
    const entry = await this.get(reference);
    const now = this.deps.now();
    await this.deps.state.set<IndexEntry>(
      this.key(reference),
      { claimedAt: entry?.claimedAt ?? now, since: entry?.since ?? now, storeOrderId },
      INDEX_TTL_MS,
    );
  }

  /** The attempt is over without an order: the next one may go, and looks at `storeOrderId` first. */
  async release(reference: string, storeOrderId?: string): Promise<void> {
    const entry = await this.get(reference);
    const unpaid = storeOrderId ?? entry?.storeOrderId;
    if (!entry || !unpaid) return this.deps.state.delete(this.key(reference));
    await this.deps.state.set<IndexEntry>(this.key(reference), { claimedAt: 0, since: entry.since, storeOrderId: unpaid }, INDEX_TTL_MS);
  }

  /** The order an earlier attempt made for the reference, paid or not; null when the store has none. */
  async earlier(reference: string, entry: IndexEntry, signal?: AbortSignal): Promise<StoreOrder | null> {
    const known = entry.storeOrderId ? await this.read(entry.storeOrderId, signal) : null;
    if (known?.paid) return known;
    return (await this.scan(reference, entry.since, signal)) ?? (known && counts(known) ? known : null);
  }

  private async read(orderId: string, signal?: AbortSignal): Promise<StoreOrder | null> {
    const response = await this.deps.http.rest('GET', `orders/${orderId}`, { params: { _fields: FIELDS } }, signal);
    if (response.status === 404) return null;
    if (response.status !== 200) throw unexpected(`GET wc/v3/orders/${orderId}`, response.body);
    return storeOrder(expectShape(OrderRef, response.body, `GET wc/v3/orders/${orderId}`));
  }

  /** The store's orders created since `since` carrying the reference: a paid one, or else the newest unpaid one. */
  async scan(reference: string, since: number, signal?: AbortSignal): Promise<StoreOrder | null> {
    const after = new Date(since - CLOCK_SLACK_MS).toISOString().slice(0, 19);
    let unpaid: StoreOrder | null = null;
    for (let page = 1, pages = 1; page <= pages; page++) {
      const params = { after, dates_are_gmt: true, per_page: PER_PAGE, page, orderby: 'date', order: 'desc', _fields: FIELDS };
      const response = await this.deps.http.rest('GET', 'orders', { params }, signal);
      if (response.status !== 200) throw unexpected('GET wc/v3/orders', response.body);
      const mine = expectShape(OrderRefs, response.body, 'GET wc/v3/orders')
        .filter((o) => referenceOf(o) === reference)
        .map(storeOrder)
        .filter(counts);
      const paid = mine.find((o) => o.paid);
      if (paid) return paid;
      unpaid ??= mine[0] ?? null;
      pages = Number(response.headers['x-wp-totalpages'] ?? 1);
    }
    return unpaid;
  }
}
