/**
 * Orders on the store, once per checkout reference:
 * - gateway_charged: `POST wc/v3/orders` as pending, then (when the store's total is the quoted
 *   one; otherwise it is cancelled and the placement refused) `set_paid` with the payment
 *   handler's `transaction_id`; the order carries the lines (chosen "any" values as line meta), the applied codes, the
 *   selected rates as shipping lines at the quoted amounts (WooCommerce takes shipping totals
 *   as sent) and the reference as order meta;
 * - store_charged: the Store API checkout of the session's own cart, with the buyer's
 *   credential as `payment_data` for the store's payment gateway; a refusal is payment_declined;
 *   the reference is then written to the order's meta;
 * - both re-price the store cart first (one batch) and refuse when a line cannot be sold or the
 *   total moved; a refund is never issued here (`api_refund` would move real money).
 * The reference index lives in the gateway's state store (every replica sees it): a claim before
 * the store call, the order id after. A claim left without an order (the call's answer was lost)
 * is resolved by reading the store's recent orders for the reference meta.
 */
import type { OrderChange, OrderSnapshot, PaymentRecord, PlaceOrderRequest, PlaceOrderResult, Quote } from '../contract.js';
import type { AdapterStore } from '../contract.js';
import { destinationOf, wcAddress } from './addresses.js';
import type { Catalog } from './catalog.js';
import { isWpError, unexpected, type WooHttp } from './http.js';
import { minorToDecimal, requiredMinor } from './money.js';
import { isPaid, LINE_META, REFERENCE_META, referenceOf, toSnapshot, type Tracking } from './order-map.js';
import type { WooCommerceSettings } from './settings.js';
import type { StoreInfo } from './store-info.js';
import { decodeVariantId } from './variant-id.js';
import { expectShape, StoreCheckout, WcFulfillments, WcOrder, WcOrders, WcRefunds, WcTrackingItems } from './wc-shapes.js';

const INDEX_TTL_MS = 90 * 86_400_000;
/** A claim older than this with no order is an attempt whose answer was lost, not one in flight. */
const STALE_CLAIM_MS = 2 * 60_000;

interface IndexEntry {
  orderId?: string;
  claimedAt: number;
}

export interface OrderDeps {
  http: WooHttp;
  info: StoreInfo;
  catalog: Catalog;
  state: AdapterStore;
  tenantId: string;
  now: () => number;
  storeUrl: string;
  settings: WooCommerceSettings;
  quote(request: PlaceOrderRequest['quote'], signal?: AbortSignal): Promise<Quote>;
}

/** Lines, shipping lines and coupon lines of a `wc/v3/orders` body, from a priced quote. */
export async function orderLines(deps: Pick<OrderDeps, 'catalog' | 'info'>, quote: Quote, signal?: AbortSignal) {
  const { currency, decimals } = await deps.info.get(signal);
  const known = await deps.catalog.variants(
    quote.lines.map((l) => l.variantId),
    signal,
  );
  const line_items = quote.lines.map((line) => {
    const ref = decodeVariantId(line.variantId)!;
    const product = known.get(line.variantId)!.product;
    const variable = product.options.length > 0;
    const chosen = known.get(line.variantId)!.variant.options.map((o) => ({ key: o.name, value: o.value }));
    return {
      product_id: Number(product.id),
      ...(variable && { variation_id: ref.id }),
      quantity: line.quantity,
      meta_data: [...(ref.anyValues.length ? chosen : []), { key: LINE_META, value: line.lineId }],
    };
  });
  const shipping_lines = (quote.fulfillment ?? []).flatMap((m) =>
    m.groups.flatMap((g) => {
      const option = g.options.find((o) => o.id === g.selectedOptionId);
      if (!option) return [];
      const [methodId = option.id, instanceId = ''] = option.id.split(':');
      return [
        {
          method_id: methodId,
          instance_id: instanceId,
          method_title: option.title,
          total: minorToDecimal(option.amount, currency, decimals),
        },
      ];
    }),
  );
  const coupon_lines = quote.discounts.applied.flatMap((d) => (d.code ? [{ code: d.code }] : []));
  return { line_items, shipping_lines, coupon_lines };
}

/**
 * An unpaid order the store totals differently from the quote (a price edited since, a rounding
 * the cart and the order do differently) is cancelled before anyone pays for it: the refusal.
 */
export async function cancelIfTotalMoved(
  http: WooHttp,
  order: WcOrder,
  expectedTotal: number,
  signal?: AbortSignal,
): Promise<Extract<PlaceOrderResult, { status: 'rejected' }> | undefined> {
  const actual = requiredMinor(order.total, order.currency, 'the order total');
  if (actual === expectedTotal) return undefined;
  const cancelled = await http.rest('PUT', `orders/${order.id}`, { data: { status: 'cancelled' } }, signal);
  if (cancelled.status !== 200) throw unexpected(`PUT wc/v3/orders/${order.id}`, cancelled.body);
  return {
    status: 'rejected',
    reason: 'price_changed',
    detail: `the store totals the order at ${actual}, not the ${expectedTotal} quoted; nothing was charged and the order was cancelled`,
    actualTotal: actual,
  };
}

export class OrderDesk {
  /** Which tracking API the store has: core fulfillments, the Shipment Tracking extension, or none. */
  private trackingApi: Promise<Tracking['kind']> | undefined;

  constructor(private readonly deps: OrderDeps) {}

  private key(reference: string): string {
    return `adapter:woocommerce:${this.deps.tenantId}:reference:${reference}`;
  }

  async remember(reference: string, orderId: string): Promise<void> {
    await this.deps.state.set<IndexEntry>(this.key(reference), { orderId, claimedAt: this.deps.now() }, INDEX_TTL_MS);
  }

  private permalink(orderId: string, orderKey: string): string {
    return `${this.deps.storeUrl}/checkout/order-received/${orderId}/?key=${orderKey}`;
  }

  /** An order placed on the store's own checkout with the reference (the reference snippet), paid, in the last week. */
  async placedOnStore(reference: string, signal?: AbortSignal): Promise<{ orderId: string; permalinkUrl: string } | null> {
    const found = await this.scan(reference, this.deps.now() - 7 * 86_400_000, signal);
    return found && (await this.ifPaid(found.orderId, signal));
  }

  /** Recent orders carrying the reference meta (orders created after `since`). */
  private async scan(reference: string, since: number, signal?: AbortSignal): Promise<{ orderId: string; permalinkUrl: string } | null> {
    const after = new Date(since - 5 * 60_000).toISOString().slice(0, 19);
    const response = await this.deps.http.rest(
      'GET',
      'orders',
      { params: { after, per_page: 100, orderby: 'date', order: 'desc' } },
      signal,
    );
    if (response.status !== 200) throw unexpected('GET wc/v3/orders', response.body);
    const order = expectShape(WcOrders, response.body, 'GET wc/v3/orders').find((o) => referenceOf(o) === reference);
    return order ? { orderId: String(order.id), permalinkUrl: this.permalink(String(order.id), order.order_key) } : null;
  }

  async findOrderByReference(reference: string, signal?: AbortSignal): Promise<{ orderId: string; permalinkUrl?: string } | null> {
    const entry = await this.deps.state.get<IndexEntry>(this.key(reference));
    if (entry?.value.orderId) return { orderId: entry.value.orderId };
    if (!entry) return null;
    const found = await this.scan(reference, entry.value.claimedAt, signal);
    if (found) await this.remember(reference, found.orderId);
    return found;
  }

  /** The order, when the buyer has paid for it (a handed-off session's pending order). */
  async ifPaid(orderId: string, signal?: AbortSignal): Promise<{ orderId: string; permalinkUrl: string } | null> {
    const response = await this.deps.http.rest('GET', `orders/${orderId}`, {}, signal);
    if (response.status === 404) return null;
    if (response.status !== 200) throw unexpected(`GET wc/v3/orders/${orderId}`, response.body);
    const order = expectShape(WcOrder, response.body, `GET wc/v3/orders/${orderId}`);
    return isPaid(order) ? { orderId, permalinkUrl: this.permalink(orderId, order.order_key) } : null;
  }

  async placeOrder(request: PlaceOrderRequest, signal?: AbortSignal): Promise<PlaceOrderResult> {
    const key = this.key(request.reference);
    if (!(await this.deps.state.setIfAbsent<IndexEntry>(key, { claimedAt: this.deps.now() }, INDEX_TTL_MS))) {
      const entry = await this.deps.state.get<IndexEntry>(key);
      if (entry?.value.orderId) return { status: 'placed', orderId: entry.value.orderId };
      const found = entry ? await this.scan(request.reference, entry.value.claimedAt, signal) : null;
      if (found) {
        await this.remember(request.reference, found.orderId);
        return { status: 'placed', ...found };
      }
      // Another attempt holds the claim (or lost its answer moments ago): it resolves later.
      if (!entry || this.deps.now() - entry.value.claimedAt < STALE_CLAIM_MS) return { status: 'pending' };
      await this.deps.state.set<IndexEntry>(key, { claimedAt: this.deps.now() }, INDEX_TTL_MS);
    }
    // A failure keeps the claim: the store may have placed the order before its answer was lost,
    // so a retry or findOrderByReference looks for it instead of placing a second order.
    const result = await this.place(request, signal);
    if (result.status === 'placed') await this.remember(request.reference, result.orderId);
    else if (result.status === 'rejected') await this.deps.state.delete(key);
    return result;
  }

  private async place(request: PlaceOrderRequest, signal?: AbortSignal): Promise<PlaceOrderResult> {
    const quote = await this.deps.quote(request.quote, signal);
    const refused = this.refusal(request, quote);
    if (refused) return refused;
    const { payment } = request;
    return payment.mode === 'gateway_charged'
      ? this.createPaid(request, payment.record, quote, signal)
      : this.checkoutInStore(request, payment.handlerId, payment.credential.token, quote, signal);
  }

  /** Why the store cannot place this quote as agreed, if it cannot. */
  private refusal(request: PlaceOrderRequest, quote: Quote): PlaceOrderResult | undefined {
    const stock = quote.lineProblems.find((p) => p.code === 'out_of_stock' || p.code === 'discontinued' || p.code === 'insufficient_stock');
    if (stock) return { status: 'rejected', reason: 'out_of_stock', detail: `line ${stock.lineId} can no longer be sold (${stock.code})` };
    const other = quote.lineProblems[0];
    if (other || quote.lines.length === 0)
      return { status: 'rejected', reason: 'incomplete', detail: other ? `line ${other.lineId}: ${other.code}` : 'nothing to order' };
    const open = (quote.fulfillment ?? []).flatMap((m) => m.groups.filter((g) => g.lineIds.length > 0 && !g.selectedOptionId));
    if (open.length)
      return { status: 'rejected', reason: 'incomplete', detail: `no shipping option selected for ${open.map((g) => g.key).join(', ')}` };
    if (quote.totals.total !== request.expectedTotal) {
      return {
        status: 'rejected',
        reason: 'price_changed',
        detail: `the store's total is ${quote.totals.total}, not ${request.expectedTotal}`,
        actualTotal: quote.totals.total,
      };
    }
    return undefined;
  }

  private billing(request: PlaceOrderRequest) {
    const billing =
      request.billingAddress ??
      (request.payment.mode === 'store_charged' ? request.payment.billingAddress : undefined) ??
      destinationOf(request.quote);
    return {
      ...wcAddress(billing),
      first_name: billing?.firstName ?? request.buyer.firstName ?? '',
      last_name: billing?.lastName ?? request.buyer.lastName ?? '',
      email: request.buyer.email,
      phone: request.buyer.phone ?? billing?.phone ?? '',
    };
  }

  private async createPaid(
    request: PlaceOrderRequest,
    record: PaymentRecord,
    quote: Quote,
    signal?: AbortSignal,
  ): Promise<PlaceOrderResult> {
    const lines = await orderLines(this.deps, quote, signal);
    const settings = this.deps.settings.gateway_charged;
    // Created unpaid first: only an order that totals what the agent was quoted is marked paid.
    const body = {
      payment_method: settings?.payment_method ?? record.handlerId,
      payment_method_title: settings?.payment_method_title ?? `Paid through ${record.handlerId}`,
      status: 'pending',
      billing: this.billing(request),
      shipping: wcAddress(destinationOf(request.quote)),
      ...lines,
      meta_data: [
        { key: REFERENCE_META, value: request.reference },
        { key: '_proto_payment_handler', value: record.handlerId },
      ],
    };
    const response = await this.deps.http.rest('POST', 'orders', { data: body }, signal);
    if (response.status === 400 && isWpError(response.body)) {
      return { status: 'rejected', reason: 'price_changed', detail: `the store refused the order: ${response.body.message}` };
    }
    if (response.status !== 201 && response.status !== 200) throw unexpected('POST wc/v3/orders', response.body);
    const order = expectShape(WcOrder, response.body, 'POST wc/v3/orders');
    const orderId = String(order.id);
    const moved = await this.totalMoved(order, request.expectedTotal, signal);
    if (moved) return moved;
    const paid = await this.deps.http.rest(
      'PUT',
      `orders/${orderId}`,
      { data: { set_paid: true, transaction_id: record.transactionId } },
      signal,
    );
    if (paid.status !== 200) throw unexpected(`PUT wc/v3/orders/${orderId}`, paid.body);
    return { status: 'placed', orderId, permalinkUrl: this.permalink(orderId, order.order_key) };
  }

  private totalMoved(order: WcOrder, expectedTotal: number, signal?: AbortSignal): Promise<PlaceOrderResult | undefined> {
    return cancelIfTotalMoved(this.deps.http, order, expectedTotal, signal);
  }

  private async checkoutInStore(
    request: PlaceOrderRequest,
    handlerId: string,
    credential: string,
    quote: Quote,
    signal?: AbortSignal,
  ): Promise<PlaceOrderResult> {
    const settings = this.deps.settings.store_charged;
    if (!settings)
      return { status: 'rejected', reason: 'incomplete', detail: 'this store has no payment gateway configured for store_charged' };
    const response = await this.deps.http.store(
      'POST',
      '/checkout',
      {
        token: quote.handle!,
        body: {
          billing_address: this.billing(request),
          shipping_address: wcAddress(destinationOf(request.quote)),
          payment_method: settings.payment_method,
          payment_data: [{ key: settings.payment_data_key ?? 'token', value: credential }],
        },
      },
      signal,
    );
    if (response.status !== 200) {
      const error = isWpError(response.body) ? response.body : { code: 'unknown', message: `status ${response.status}` };
      if (/payment/.test(error.code)) return { status: 'rejected', reason: 'payment_declined', detail: error.message };
      if (response.status === 409)
        return { status: 'rejected', reason: /coupon/.test(error.code) ? 'price_changed' : 'out_of_stock', detail: error.message };
      return { status: 'rejected', reason: 'incomplete', detail: `${error.code}: ${error.message}` };
    }
    const placed = expectShape(StoreCheckout, response.body, 'POST wc/store/v1/checkout');
    const orderId = String(placed.order_id);
    await this.remember(request.reference, orderId);
    const tagged = await this.deps.http.rest(
      'PUT',
      `orders/${orderId}`,
      {
        data: {
          meta_data: [
            { key: REFERENCE_META, value: request.reference },
            { key: '_proto_payment_handler', value: handlerId },
          ],
        },
      },
      signal,
    );
    if (tagged.status !== 200) throw unexpected(`PUT wc/v3/orders/${orderId}`, tagged.body);
    return { status: 'placed', orderId, permalinkUrl: this.permalink(orderId, placed.order_key) };
  }

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
   * Orders changed after `sinceIso` (`modified_after`, GMT), oldest change first: WooCommerce
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
      for (const order of orders) {
        const reference = referenceOf(order);
        const updatedAt = `${(order.date_modified_gmt ?? order.date_created_gmt).replace(/Z$/, '')}Z`;
        changes.push({ orderId: String(order.id), updatedAt, ...(reference && { reference }) });
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
