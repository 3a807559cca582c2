/**
 * Reading orders back from the store: one order as the gateway's snapshot (with its refunds and
 * tracking), and the orders changed since a time, for the reconciliation poll behind the webhooks.
 */
import type { OrderChange, OrderSnapshot } from '../contract.js';
import type { Catalog } from './catalog.js';
import { isWpError, unexpected, type WooHttp } from './http.js';
import { referenceOf, toSnapshot, type Tracking } from './order-map.js';
import { expectShape, WcFulfillments, WcOrder, WcOrders, WcRefunds, WcTrackingItems } from './wc-shapes.js';

export interface OrderReadDeps {
  http: WooHttp;
  catalog: Catalog;
  storeUrl: string;
}

export class OrderReads {
  /** Which tracking API the store has: core fulfillments, the Shipment Tracking extension, or none. */
  private trackingApi: Promise<Tracking['kind']> | undefined;

  constructor(private readonly deps: OrderReadDeps) {}

  private async tracking(orderId: string, signal?: AbortSignal): Promise<Tracking> {
    const read = async (kind: 'fulfillments' | 'shipment-tracking'): Promise<Tracking | 'absent'> => {
      const [endpoint, version] =
        kind === 'fulfillments'
          ? [`orders/${orderId}/fulfillments`, 'wc/v3']
          : [`orders/${orderId}/shipment-trackings`, 'wc-shipment-tracking/v3'];
      const response = await this.deps.http.rest('GET', endpoint, { version }, signal);
      if (response.status === 404 && isWpError(response.body) && response.body.code === 'rest_no_route') return 'absent';
      if (response.status === 404) return { kind: 'none' };
      if (response.status !== 200) throw unexpected(`GET ${version}/${endpoint}`, response.body);
      return kind === 'fulfillments'
        ? { kind, items: expectShape(WcFulfillments, response.body, `GET ${version}/${endpoint}`) }
        : { kind, items: expectShape(WcTrackingItems, response.body, `GET ${version}/${endpoint}`) };
    };
    const known = this.trackingApi ? await this.trackingApi : undefined;
    if (known === 'none') return { kind: 'none' };
    if (known) {
      const found = await read(known);
      return found === 'absent' ? { kind: 'none' } : found;
    }
    for (const kind of ['fulfillments', 'shipment-tracking'] as const) {
      const found = await read(kind);
      if (found !== 'absent') {
        this.trackingApi = Promise.resolve(kind);
        return found;
      }
    }
    this.trackingApi = Promise.resolve('none');
    return { kind: 'none' };
  }

  /**
   * Orders changed after `sinceIso` (`modified_after`, GMT), oldest change first, checkout drafts left out: WooCommerce
   * never retries a failed webhook delivery, so the gateway polls this to catch the lost ones.
   */
  async changedSince(sinceIso: string, signal?: AbortSignal): Promise<OrderChange[]> {
    const since = new Date(Date.parse(sinceIso) - 1000).toISOString().slice(0, 19);
    const changes: OrderChange[] = [];
    for (let page = 1; ; page++) {
      const response = await this.deps.http.rest(
        'GET',
        'orders',
        { params: { modified_after: since, dates_are_gmt: true, per_page: 100, page, orderby: 'date', order: 'asc' } },
        signal,
      );
      if (response.status !== 200) throw unexpected('GET wc/v3/orders', response.body);
      const orders = expectShape(WcOrders, response.body, 'GET wc/v3/orders');
      // A checkout draft (the Store API's order before payment) is no order yet.
      for (const order of orders.filter((o) => o.status !== 'checkout-draft')) {
        const reference = referenceOf(order);
        const updatedAt = `${(order.date_modified_gmt ?? order.date_created_gmt).replace(/Z$/, '')}Z`;
        changes.push({ orderId: String(order.id), storeReference: String(order.id), updatedAt, ...(reference && { reference }) });
      }
      if (orders.length < 100) break;
    }
    return changes.sort((a, b) => a.updatedAt.localeCompare(b.updatedAt));
  }

  async getOrder(orderId: string, signal?: AbortSignal): Promise<OrderSnapshot | null> {
    if (!/^\d+$/.test(orderId)) return null;
    const [response, tracking] = await Promise.all([
      this.deps.http.rest('GET', `orders/${orderId}`, {}, signal),
      this.tracking(orderId, signal),
    ]);
    if (response.status === 404) return null;
    if (response.status !== 200) throw unexpected(`GET wc/v3/orders/${orderId}`, response.body);
    const order = expectShape(WcOrder, response.body, `GET wc/v3/orders/${orderId}`);
    let refunds: ReturnType<typeof expectShape<typeof WcRefunds>> = [];
    if (order.refunds.length > 0) {
      const read = await this.deps.http.rest('GET', `orders/${orderId}/refunds`, { params: { per_page: 100 } }, signal);
      if (read.status !== 200) throw unexpected(`GET wc/v3/orders/${orderId}/refunds`, read.body);
      refunds = expectShape(WcRefunds, read.body, `GET wc/v3/orders/${orderId}/refunds`);
    }
    const variants = this.deps.catalog.knownFor(order.line_items.map((l) => l.variation_id).filter(Boolean));
    return toSnapshot({ order, refunds, tracking, variants, storeUrl: this.deps.storeUrl });
  }
}
