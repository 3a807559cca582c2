/**
 * Orders on the store, once per checkout reference:
 * - gateway_charged: `POST wc/v3/orders` as pending, then (when the store's total is the quoted
 *   one; otherwise it is cancelled and the placement refused) `set_paid` with the payment
 *   handler's `transaction_id`; the order carries the lines (chosen "any" values as line meta),
 *   the applied codes, the selected rates as shipping lines at the quoted amounts (WooCommerce
 *   takes shipping totals as sent) and the reference as order meta;
 * - store_charged: the Store API checkout of the session's own cart (store-checkout.ts), placed
 *   only once the store says the order is paid: a card waiting for 3-D Secure asks the buyer
 *   (requires_action at the store's page, the order id as store reference; the paid order comes
 *   as a webhook or poll), a payment the store still processes or a bank transfer it waits for
 *   is pending;
 * - both re-price the store cart first (one batch) and refuse when a line cannot be sold or the
 *   total moved; a refund is never issued here (`api_refund` would move real money).
 * The reference index (reference-index.ts) claims the reference before the store call. A claim
 * left without an order (the call's answer was lost) is resolved from the store's orders: a paid
 * one is the placement; an unpaid one is finished (gateway_charged: marked paid; store_charged:
 * the cart's checkout pays that same order again, DraftOrderTrait), never doubled.
 */
import { Type } from '@sinclair/typebox';
import type { PaymentRecord, PlaceOrderRequest, PlaceOrderResult, Quote } from '../contract.js';
import type { AdapterStore } from '../contract.js';
import { destinationOf, wcAddress } from './addresses.js';
import { decodeHandle } from './cart-handle.js';
import type { Catalog } from './catalog.js';
import { isWpError, unexpected, type WooHttp } from './http.js';
import { minorToDecimal, requiredMinor } from './money.js';
import { isPaid, LINE_META, REFERENCE_META } from './order-map.js';
import { ReferenceIndex, type StoreOrder } from './reference-index.js';
import type { WooCommerceSettings } from './settings.js';
import { checkout, isBuyerPage } from './store-checkout.js';
import type { StoreInfo } from './store-info.js';
import { decodeVariantId } from './variant-id.js';
import { expectShape, WcOrder } from './wc-shapes.js';

const OrderPaymentUrl = Type.Object({ payment_url: Type.String({ pattern: '^https?://' }) });

/** A claim older than this with no order is an attempt whose answer was lost, not one in flight. */
const STALE_CLAIM_MS = 2 * 60_000;

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

type Placed = { orderId: string; permalinkUrl?: string };

export class OrderDesk {
  readonly index: ReferenceIndex;

  constructor(private readonly deps: OrderDeps) {
    this.index = new ReferenceIndex(deps);
  }

  private placed(order: { orderId: string; orderKey: string }): Placed {
    return {
      orderId: order.orderId,
      permalinkUrl: `${this.deps.storeUrl}/checkout/order-received/${order.orderId}/?key=${order.orderKey}`,
    };
  }

  /** An order the index knows, with its page when its key is known. */
  private known(orderId: string, orderKey: string | undefined): Placed {
    return orderKey ? this.placed({ orderId, orderKey }) : { orderId };
  }

  /** The order placed for the reference: paid, as the index knows it or as an earlier attempt left it on the store. */
  async findOrderByReference(reference: string, signal?: AbortSignal): Promise<Placed | null> {
    const entry = await this.index.get(reference);
    if (entry?.orderId) return this.known(entry.orderId, entry.orderKey);
    if (!entry) return null;
    const earlier = await this.index.earlier(reference, entry, signal);
    if (!earlier?.paid) return null;
    await this.index.remember(reference, earlier);
    return this.placed(earlier);
  }

  /** An order placed on the store's own checkout with the reference (the reference snippet), paid, in the last week. */
  async placedOnStore(reference: string, signal?: AbortSignal): Promise<Placed | null> {
    const found = await this.index.scan(reference, this.deps.now() - 7 * 86_400_000, signal);
    return found?.paid ? this.placed(found) : null;
  }

  /** The order, when the buyer has paid for it (a handed-off session's pending order). */
  async ifPaid(orderId: string, signal?: AbortSignal): Promise<Placed | null> {
    const response = await this.deps.http.rest('GET', `orders/${orderId}`, {}, signal);
    if (response.status === 404) return null;
    if (response.status !== 200) throw unexpected(`GET wc/v3/orders/${orderId}`, response.body);
    const order = expectShape(WcOrder, response.body, `GET wc/v3/orders/${orderId}`);
    return isPaid(order) ? this.placed({ orderId, orderKey: order.order_key }) : null;
  }

  async placeOrder(request: PlaceOrderRequest, signal?: AbortSignal): Promise<PlaceOrderResult> {
    const { reference } = request;
    const claim = await this.index.claim(reference);
    let earlier: StoreOrder | null = null;
    if (!claim.claimed) {
      const { entry } = claim;
      if (entry.orderId) return { status: 'placed', ...this.known(entry.orderId, entry.orderKey) };
      earlier = await this.index.earlier(reference, entry, signal);
      if (earlier?.paid) {
        await this.index.remember(reference, earlier);
        return { status: 'placed', ...this.placed(earlier) };
      }
      // The store still processes a payment it answered pending (or waits for a transfer): never pay again.
      const awaited =
        entry.claimedAt > 0 &&
        earlier !== null &&
        entry.storeOrderId === earlier.orderId &&
        ['pending', 'on-hold'].includes(earlier.status);
      // An unpaid order of ours recorded through the REST API only waits to be marked paid (a
      // second set_paid changes nothing); anything else may still be running elsewhere.
      const resumable = earlier && request.payment.mode === 'gateway_charged' && earlier.status === 'pending';
      if (awaited || (!resumable && this.deps.now() - entry.claimedAt < STALE_CLAIM_MS)) return { status: 'pending' };
      await this.index.relet(reference, entry);
    }
    // A failure keeps the claim: the store may have placed the order before its answer was lost,
    // so a retry or findOrderByReference looks for it instead of placing a second order.
    return this.place(request, earlier, signal);
  }

  private async place(request: PlaceOrderRequest, earlier: StoreOrder | null, signal?: AbortSignal): Promise<PlaceOrderResult> {
    const { payment } = request;
    if (payment.mode === 'gateway_charged' && earlier?.status === 'pending') {
      return this.markPaid(request, earlier.orderId, payment.record, signal);
    }
    const quote = await this.deps.quote(request.quote, signal);
    const refused = this.refusal(request, quote);
    if (refused) {
      await this.index.release(request.reference);
      return refused;
    }
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
      await this.index.release(request.reference);
      return { status: 'rejected', reason: 'price_changed', detail: `the store refused the order: ${response.body.message}` };
    }
    if (response.status !== 201 && response.status !== 200) throw unexpected('POST wc/v3/orders', response.body);
    return this.payIfTotalHolds(request, expectShape(WcOrder, response.body, 'POST wc/v3/orders'), record, signal);
  }

  /** An unpaid order an earlier attempt created (its answer lost), checked and marked paid. */
  private async markPaid(request: PlaceOrderRequest, orderId: string, record: PaymentRecord, signal?: AbortSignal) {
    const read = await this.deps.http.rest('GET', `orders/${orderId}`, {}, signal);
    if (read.status !== 200) throw unexpected(`GET wc/v3/orders/${orderId}`, read.body);
    return this.payIfTotalHolds(request, expectShape(WcOrder, read.body, `GET wc/v3/orders/${orderId}`), record, signal);
  }

  private async payIfTotalHolds(request: PlaceOrderRequest, order: WcOrder, record: PaymentRecord, signal?: AbortSignal) {
    const orderId = String(order.id);
    const moved = await cancelIfTotalMoved(this.deps.http, order, request.expectedTotal, signal);
    if (moved) {
      await this.index.release(request.reference);
      return moved;
    }
    const paid = await this.deps.http.rest(
      'PUT',
      `orders/${orderId}`,
      { data: { set_paid: true, transaction_id: record.transactionId } },
      signal,
    );
    if (paid.status !== 200) throw unexpected(`PUT wc/v3/orders/${orderId}`, paid.body);
    await this.index.remember(request.reference, { orderId, orderKey: order.order_key });
    return { status: 'placed' as const, ...this.placed({ orderId, orderKey: order.order_key }) };
  }

  private async checkoutInStore(
    request: PlaceOrderRequest,
    handlerId: string,
    credential: string,
    quote: Quote,
    signal?: AbortSignal,
  ): Promise<PlaceOrderResult> {
    const settings = this.deps.settings.store_charged;
    const session = decodeHandle(quote.handle);
    if (!settings || !session) {
      await this.index.release(request.reference);
      return { status: 'rejected', reason: 'incomplete', detail: 'this store has no payment gateway configured for store_charged' };
    }
    const outcome = await checkout(
      this.deps.http,
      session,
      {
        billing_address: this.billing(request),
        shipping_address: wcAddress(destinationOf(request.quote)),
        payment_method: settings.payment_method,
        payment_data: [{ key: settings.payment_data_key ?? 'token', value: credential }],
        reference: request.reference,
        handlerId,
      },
      signal,
    );
    if (outcome.kind === 'rejected') {
      await this.index.release(request.reference);
      return outcome.rejection;
    }
    // Without the must-use plugin the reference is written now, after the fact. A challenged
    // order is linked by its id (the store reference) all the same: a failed write loses nothing.
    if (!outcome.referenced) {
      const tagged = this.tag(outcome.orderId, request.reference, handlerId, signal);
      await (outcome.kind === 'buyer_action' ? tagged.catch(() => undefined) : tagged);
    }
    switch (outcome.kind) {
      case 'paid':
        await this.index.remember(request.reference, outcome);
        return { status: 'placed', ...this.placed(outcome) };
      case 'waiting':
        await this.index.waiting(request.reference, outcome.orderId);
        return { status: 'pending' };
      case 'buyer_action':
        // Nothing charged: the next attempt (another instrument) looks at this order first and pays it.
        await this.index.release(request.reference, outcome.orderId);
        return {
          status: 'requires_action',
          continueUrl: isBuyerPage(outcome.url) ? outcome.url : await this.paymentPage(outcome.orderId, signal),
          detail: 'The store’s payment gateway asks the buyer to approve this payment on the store’s page; nothing was charged yet',
          storeReference: outcome.orderId,
        };
    }
  }

  /** The order's "Pay for order" page (`payment_url`), where the store's gateway runs its challenge. */
  private async paymentPage(orderId: string, signal?: AbortSignal): Promise<string> {
    const read = await this.deps.http.rest('GET', `orders/${orderId}`, { params: { _fields: 'id,payment_url' } }, signal);
    if (read.status !== 200) throw unexpected(`GET wc/v3/orders/${orderId}`, read.body);
    const { payment_url: url } = expectShape(OrderPaymentUrl, read.body, `GET wc/v3/orders/${orderId}`);
    return url;
  }

  private async tag(orderId: string, reference: string, handlerId: string, signal?: AbortSignal): Promise<void> {
    const meta_data = [
      { key: REFERENCE_META, value: reference },
      { key: '_proto_payment_handler', value: handlerId },
    ];
    const tagged = await this.deps.http.rest('PUT', `orders/${orderId}`, { data: { meta_data } }, signal);
    if (tagged.status !== 200) throw unexpected(`PUT wc/v3/orders/${orderId}`, tagged.body);
  }
}
