/**
 * Placing and reading orders. Placement completes the session's Medusa cart (the handle): the
 * cart is brought to the final request and tagged with the gateway's reference (cart metadata,
 * which Medusa copies onto the order), its total checked against the agreed one, a payment
 * session opened with the finishing mode's provider, and the cart completed. Medusa completes a
 * cart once: completing it again answers the same order, which makes placement and
 * `findOrderByReference` idempotent (reference -> cart id is kept in the gateway's state store).
 * Orders are read from the Admin API only (secret key): never `GET /store/orders/:id`, which
 * answers any order to anyone holding its id.
 */
import type {
  FulfillmentEvent,
  OrderAdjustment,
  OrderChange,
  OrderLine,
  OrderSnapshot,
  PlaceOrderRequest,
  PlaceOrderResult,
  PostalAddress,
} from '../contract.js';
import type { AdapterStore } from '../contract.js';
import type { MedusaCarts } from './cart.js';
import { isUnknown, list, member, MedusaRefusal, type MedusaClient } from './client.js';
import { toMinor } from './money.js';
import type { MedusaAddress, MedusaOrder } from './shapes.js';

const ORDER_FIELDS =
  'id,display_id,status,created_at,updated_at,canceled_at,currency_code,metadata,total,subtotal,tax_total,shipping_subtotal,' +
  '*items,*items.detail,*items.adjustments,*shipping_address,*shipping_methods,*shipping_methods.adjustments,' +
  '*fulfillments,*fulfillments.labels,*fulfillments.items,' +
  '*payment_collections,*payment_collections.payments,*payment_collections.payments.refunds';

/** How long the reference -> cart index is kept (a handed-off buyer may pay days later). */
const REFERENCE_TTL_MS = 90 * 86_400_000;

export interface OrderScope {
  /** The Medusa payment provider each finishing mode pays with. */
  providers: { store_charged: string; gateway_charged: string };
  store: AdapterStore;
  keyPrefix: string;
}

const fromMedusaAddress = (a: MedusaAddress | null | undefined): PostalAddress | undefined =>
  a
    ? {
        ...(a.first_name && { firstName: a.first_name }),
        ...(a.last_name && { lastName: a.last_name }),
        ...(a.address_1 && { streetAddress: a.address_1 }),
        ...(a.address_2 && { extendedAddress: a.address_2 }),
        ...(a.city && { locality: a.city }),
        ...(a.province && { region: a.province }),
        ...(a.country_code && { country: String(a.country_code).toUpperCase() }),
        ...(a.postal_code && { postalCode: a.postal_code }),
        ...(a.phone && { phone: a.phone }),
      }
    : undefined;

export class MedusaOrders {
  constructor(
    private readonly client: MedusaClient,
    private readonly carts: MedusaCarts,
    private readonly scope: OrderScope,
  ) {}

  private key = (reference: string) => `${this.scope.keyPrefix}ref:${reference}`;

  /** Keeps which Medusa cart a checkout reference is finished on (placement, handoff). */
  async remember(reference: string, cartId: string): Promise<void> {
    await this.scope.store.set(this.key(reference), cartId, REFERENCE_TTL_MS);
  }

  /** Completes a cart (again): Medusa answers the order it made, or why it cannot. */
  /** The order comes with its payments (`fields`), so recording them captured needs no order read. */
  private async complete(cartId: string, signal?: AbortSignal): Promise<{ orderId: string; order: MedusaOrder } | { refused: string }> {
    try {
      const answer = await this.client.call<{ type?: string; order?: MedusaOrder; error?: { message?: string } }>(
        'store',
        `/store/carts/${cartId}/complete`,
        'cart complete',
        { method: 'POST', query: { fields: 'id,*payment_collections,*payment_collections.payments' }, signal },
      );
      if (answer.type === 'order' && answer.order?.id) return { orderId: answer.order.id, order: answer.order };
      return { refused: String(answer.error?.message ?? 'the cart could not be completed') };
    } catch (error) {
      if (error instanceof MedusaRefusal) return { refused: error.message };
      throw error;
    }
  }

  async findOrderByReference(reference: string, signal?: AbortSignal): Promise<{ orderId: string } | null> {
    const cartId = (await this.scope.store.get<string>(this.key(reference)))?.value;
    if (!cartId) return null;
    const cart = await this.carts.retrieve(cartId, signal);
    if (!cart?.completed_at) return null;
    const done = await this.complete(cartId, signal);
    return 'orderId' in done ? { orderId: done.orderId } : null;
  }

  async placeOrder(request: PlaceOrderRequest, signal?: AbortSignal): Promise<PlaceOrderResult> {
    const placed = await this.findOrderByReference(request.reference, signal);
    if (placed) return { status: 'placed', orderId: placed.orderId };
    const mode = request.payment.mode;
    const asked = { ...request.quote, buyer: { ...request.quote.buyer, ...request.buyer } };
    // The gateway priced this very cart for the completion moments ago: placed on that price.
    const recent = request.quote.handle && this.carts.recentQuote(request.quote.handle, asked, request.reference);
    const { quote, cart } =
      recent || (await this.carts.quoteCart(asked, { metadata: { gateway_reference: request.reference }, ...(signal && { signal }) }));
    const cartId = quote.handle!;
    await this.remember(request.reference, cartId);
    if (quote.lineProblems.length > 0) {
      const stock = quote.lineProblems.some((p) => p.code === 'out_of_stock' || p.code === 'insufficient_stock');
      return {
        status: 'rejected',
        reason: stock ? 'out_of_stock' : 'incomplete',
        detail: `lines the store cannot sell: ${quote.lineProblems.map((p) => p.lineId).join(', ')}`,
      };
    }
    const unselected = (quote.fulfillment ?? []).some((m) => m.lineIds.length > 0 && m.groups.some((g) => !g.selectedOptionId));
    if (unselected || (quote.lines.some((l) => l.requiresShipping) && quote.totals.shipping === null))
      return { status: 'rejected', reason: 'incomplete', detail: 'no shipping option is selected' };
    if (quote.totals.total !== request.expectedTotal)
      return { status: 'rejected', reason: 'price_changed', detail: 'the store total moved', actualTotal: quote.totals.total };

    // The payment session comes last: any later change to the cart would delete it.
    let collectionId = cart.payment_collection?.id;
    if (!collectionId) {
      const created = await this.client.call('store', '/store/payment-collections', 'payment collection', {
        method: 'POST',
        body: { cart_id: cartId },
        signal,
      });
      collectionId = member<{ id: string }>(created, 'payment_collection', 'payment collection').id;
    }
    const data =
      request.payment.mode === 'store_charged'
        ? { token: request.payment.credential.token, type: request.payment.credential.type }
        : { gateway_handler: request.payment.record.handlerId, gateway_transaction: request.payment.record.transactionId };
    await this.client.call('store', `/store/payment-collections/${collectionId}/payment-sessions`, 'payment session', {
      method: 'POST',
      body: { provider_id: this.scope.providers[mode], data },
      signal,
    });
    const done = await this.complete(cartId, signal);
    if ('refused' in done) {
      const reason = /authoriz|payment|declin/i.test(done.refused)
        ? 'payment_declined'
        : /inventory|stock/i.test(done.refused)
          ? 'out_of_stock'
          : 'incomplete';
      return { status: 'rejected', reason, detail: done.refused };
    }
    if (request.payment.mode === 'gateway_charged') await this.recordCaptured(done.order, signal);
    return { status: 'placed', orderId: done.orderId };
  }

  /**
   * gateway_charged: the gateway's handler captured the money; the order's payment (authorized by
   * the manual provider, which moves no money) is recorded captured through the Admin API.
   */
  private async recordCaptured(order: MedusaOrder, signal?: AbortSignal): Promise<void> {
    for (const collection of order.payment_collections ?? [])
      for (const payment of collection.payments ?? [])
        if (!payment.captured_at)
          await this.client.call('admin', `/admin/payments/${payment.id}/capture`, 'payment capture', { method: 'POST', body: {}, signal });
  }

  async getOrder(orderId: string, signal?: AbortSignal): Promise<OrderSnapshot | null> {
    let order: MedusaOrder;
    try {
      const answer = await this.client.call('admin', `/admin/orders/${encodeURIComponent(orderId)}`, 'order read', {
        query: { fields: ORDER_FIELDS },
        signal,
      });
      order = member<MedusaOrder>(answer, 'order', 'order read');
    } catch (error) {
      if (isUnknown(error)) return null;
      throw error;
    }
    return toSnapshot(order);
  }

  /** Orders Medusa changed since `sinceIso` (inclusive), oldest first: `GET /admin/orders?updated_at[$gte]=`. */
  async ordersChangedSince(sinceIso: string, signal?: AbortSignal): Promise<OrderChange[]> {
    const changes: OrderChange[] = [];
    const limit = 100;
    for (let offset = 0; ; offset += limit) {
      const answer = await this.client.call('admin', '/admin/orders', 'order changes', {
        query: { updated_at: { $gte: sinceIso }, order: 'updated_at', fields: 'id,updated_at,metadata', limit, offset },
        signal,
      });
      const orders = list<{ id: string; updated_at: string; metadata?: Record<string, unknown> | null }>(answer, 'orders', 'order changes');
      for (const o of orders)
        changes.push({
          orderId: o.id,
          updatedAt: new Date(o.updated_at).toISOString(),
          ...(typeof o.metadata?.gateway_reference === 'string' && { reference: o.metadata.gateway_reference }),
        });
      if (orders.length < limit) return changes;
    }
  }
}

export function toSnapshot(order: MedusaOrder): OrderSnapshot {
  const currency = String(order.currency_code).toUpperCase();
  const minor = (amount: unknown) => toMinor(amount ?? 0, currency);
  const lines: OrderLine[] = (order.items ?? []).map((item) => {
    const unitPrice = minor(item.unit_price);
    const quantity = Number(item.quantity);
    return {
      id: item.id,
      ...(typeof item.metadata?.gateway_line_id === 'string' && { checkoutLineId: item.metadata.gateway_line_id }),
      variantId: item.variant_id,
      productId: item.product_id,
      title: item.product_title ?? item.title ?? '',
      ...(item.variant_sku && { sku: item.variant_sku }),
      unitPrice,
      ...(item.thumbnail && { imageUrl: item.thumbnail }),
      quantity: { original: quantity, current: quantity, fulfilled: Number(item.detail?.fulfilled_quantity ?? 0) },
      subtotal: unitPrice * quantity,
      discount: (item.adjustments ?? []).reduce((s, a) => s + minor(a.amount), 0),
    };
  });
  const events: FulfillmentEvent[] = [];
  for (const f of order.fulfillments ?? []) {
    const fulfilled = (f.items ?? []).map((i) => ({ id: i.line_item_id, quantity: Number(i.quantity) }));
    const label = (f.labels ?? [])[0];
    const tracking = label
      ? {
          ...(label.tracking_number && { trackingNumber: label.tracking_number }),
          ...(label.tracking_url && { trackingUrl: label.tracking_url }),
        }
      : {};
    events.push({ id: `${f.id}:processing`, occurredAt: iso(f.created_at), type: 'processing', lines: fulfilled });
    if (f.shipped_at) events.push({ id: `${f.id}:shipped`, occurredAt: iso(f.shipped_at), type: 'shipped', lines: fulfilled, ...tracking });
    if (f.delivered_at)
      events.push({ id: `${f.id}:delivered`, occurredAt: iso(f.delivered_at), type: 'delivered', lines: fulfilled, ...tracking });
    if (f.canceled_at) events.push({ id: `${f.id}:canceled`, occurredAt: iso(f.canceled_at), type: 'canceled', lines: fulfilled });
  }
  const adjustments: OrderAdjustment[] = [];
  for (const collection of order.payment_collections ?? [])
    for (const payment of collection.payments ?? [])
      for (const refund of payment.refunds ?? [])
        adjustments.push({
          id: refund.id,
          type: 'refund',
          occurredAt: iso(refund.created_at),
          status: 'completed',
          amount: -minor(refund.amount),
          ...(refund.note && { description: refund.note }),
        });
  const subtotal = lines.reduce((s, l) => s + l.subtotal, 0);
  const shipping = minor(order.shipping_subtotal);
  const tax = minor(order.tax_total);
  const total = minor(order.total);
  const discount = (order.shipping_methods ?? []).flatMap((m) => m.adjustments ?? []).reduce((s, a) => s + minor(a.amount), 0);
  const destination = fromMedusaAddress(order.shipping_address);
  return {
    id: order.id,
    ...(typeof order.metadata?.gateway_reference === 'string' && { reference: order.metadata.gateway_reference }),
    currency,
    createdAt: iso(order.created_at),
    lines,
    expectations: lines.length
      ? [
          {
            id: 'shipping',
            lines: lines.map((l) => ({ id: l.id, quantity: l.quantity.current })),
            method: 'shipping',
            ...(destination && { destination }),
            fulfillableOn: 'now',
          },
        ]
      : [],
    events,
    adjustments,
    // As Medusa charges: the total rounded once; the items discount takes what rounding leaves.
    totals: { subtotal, itemsDiscount: subtotal - discount + shipping + tax - total, discount, shipping, tax, total },
    ...(order.status === 'canceled' && { canceled: true }),
  };
}

const iso = (value: unknown) => new Date(String(value)).toISOString();
