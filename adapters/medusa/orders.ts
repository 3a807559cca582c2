/**
 * Placing and reading orders. Placement completes the session's Medusa cart (the handle): the
 * cart is brought to the final request and tagged with the gateway's reference (cart metadata,
 * which Medusa copies onto the order), its total checked against the agreed one, a payment
 * session opened with the finishing mode's provider, and the cart completed. Medusa completes a
 * cart once: completing it again answers the same order, which makes placement and
 * `findOrderByReference` idempotent (reference -> cart id is kept in the gateway's state store).
 * Orders are read from the Admin API only (secret key): never `GET /store/orders/:id`, which
 * answers any order to anyone holding its id.
 *
 * A card that needs 3-D Secure: Stripe's provider opens the session `requires_more` (the intent
 * `requires_action`, stripe-base.js getStatus), which Medusa refuses to complete, leaving the cart
 * open (payment module authorizePaymentSession: NOT_ALLOWED; core-flows authorize-payment-session:
 * PAYMENT_REQUIRES_MORE_ERROR). The intent's `next_action.redirect_to_url.url` is the issuer's
 * page: `requires_action` with it and the cart id as store reference. When the buyer approves,
 * Stripe's webhook makes Medusa authorize the session and complete the cart itself (core-flows
 * process-payment: complete-cart-after-payment), and the order is found by its cart: Medusa
 * answers a completed cart's completion with the order linked to it (the order-cart link).
 */
import type { OrderChange, OrderLinks, OrderSnapshot, PlaceOrderRequest, PlaceOrderResult } from '../contract.js';
import type { AdapterStore } from '../contract.js';
import type { MedusaCarts } from './cart.js';
import { isUnknown, list, member, MedusaRefusal, type MedusaClient } from './client.js';
import { CHECKOUT_FIELDS, ORDER_FIELDS, toSnapshot } from './order-snapshot.js';
import { paymentData, type PaymentDataForm } from './payment-data.js';
import type { MedusaOrder } from './shapes.js';

/** How long the reference -> cart index is kept (a handed-off buyer may pay days later). */
const REFERENCE_TTL_MS = 90 * 86_400_000;

export interface OrderScope {
  /** The Medusa payment provider each finishing mode pays with. */
  providers: { store_charged: string; gateway_charged: string };
  /** store_charged: the session data as the provider reads the credential (payment-data.ts). */
  paymentData: PaymentDataForm;
  store: AdapterStore;
  keyPrefix: string;
  /** The storefront's checkout page of a cart: where an issuer's 3-D Secure page sends the buyer back. */
  checkoutPage: (cartId: string) => string;
}

/** What the provider made of the payment session: refused at once, waiting for the buyer at a page, or ready to complete. */
type SessionOutcome = { declined: string } | { continueUrl: string } | undefined;

/** A Medusa payment session as the payment collection answers it. */
interface MedusaSession {
  provider_id: string;
  status: string;
  data?: { next_action?: { type?: string; redirect_to_url?: { url?: string } } | null } | null;
}

/** The session's outcome: Stripe's form of a challenge is `requires_more` with the intent's next action (stripe-base.js getStatus). */
function sessionOutcome(session: MedusaSession | undefined): SessionOutcome {
  const status = session?.status;
  if (status === 'error' || status === 'canceled') return { declined: `the payment provider refused the credential (session ${status})` };
  if (status !== 'requires_more') return undefined;
  const url = session?.data?.next_action?.redirect_to_url?.url;
  if (typeof url === 'string' && /^https?:\/\//.test(url)) return { continueUrl: url };
  const how = session?.data?.next_action?.type;
  return {
    declined:
      how === 'use_stripe_sdk'
        ? "the card issuer asks the buyer to authenticate, which only Stripe.js in the store's storefront can run " +
          '(no return_url, no page to send the buyer to)'
        : 'the payment provider needs more from the buyer and names no page for it',
  };
}

/** What completing a cart came to: the order, a refusal in the contract's words, or another request completing it right now. */
type Completion =
  | { orderId: string; order: MedusaOrder }
  | { refused: string; reason: 'payment_declined' | 'out_of_stock' | 'incomplete' }
  | { busy: true };

/** Medusa's refusal to complete, in the contract's words: its payment errors are declines, its inventory errors stock. */
function refusalReason(message: string, type?: string): 'payment_declined' | 'out_of_stock' | 'incomplete' {
  if (type === 'payment_authorization_error' || type === 'payment_requires_more_error') return 'payment_declined';
  if (/not authorized|authoriz|more information is required for payment/i.test(message)) return 'payment_declined';
  if (/inventory|stock/i.test(message)) return 'out_of_stock';
  return 'incomplete';
}

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

  /**
   * Completes a cart (again): Medusa answers the order it made (the same one every time), 200
   * `{type: "cart", error}` when the payment was not authorized or needs more, 4xx when the cart
   * cannot complete, 409 while another request completes it (the store's complete-cart route).
   * The order comes with its payments (`fields`), so recording them captured needs no order read.
   */
  private async complete(cartId: string, signal?: AbortSignal): Promise<Completion> {
    try {
      const answer = await this.client.call<{ type?: string; order?: MedusaOrder; error?: { message?: string; type?: string } }>(
        'store',
        `/store/carts/${cartId}/complete`,
        'cart complete',
        { method: 'POST', query: { fields: 'id,*payment_collections,*payment_collections.payments' }, signal },
      );
      if (answer.type === 'order' && answer.order?.id) return { orderId: answer.order.id, order: answer.order };
      const message = String(answer.error?.message ?? 'the cart could not be completed');
      return { refused: message, reason: refusalReason(message, answer.error?.type) };
    } catch (error) {
      if (error instanceof MedusaRefusal && error.status === 409) return { busy: true };
      if (error instanceof MedusaRefusal) return { refused: error.message, reason: refusalReason(error.message) };
      throw error;
    }
  }

  /**
   * The order of the cart the reference was finished on: the cart this gateway kept for it, else
   * the cart the gateway names (`links`: the store reference of a challenge or handoff, the
   * session's cart), for a state store that lost or never had the index.
   */
  async findOrderByReference(reference: string, signal?: AbortSignal, links?: OrderLinks): Promise<{ orderId: string } | null> {
    const cartId = (await this.scope.store.get<string>(this.key(reference)))?.value ?? links?.storeReference ?? links?.handle;
    if (!cartId) return null;
    const cart = await this.carts.retrieve(cartId, signal);
    if (!cart?.completed_at) return null;
    const done = await this.complete(cartId, signal);
    return 'orderId' in done ? { orderId: done.orderId } : null;
  }

  async placeOrder(request: PlaceOrderRequest, signal?: AbortSignal): Promise<PlaceOrderResult> {
    const placed = await this.findOrderByReference(request.reference, signal);
    if (placed) return { status: 'placed', orderId: placed.orderId };
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

    // The payment session comes last: any later change to the cart would delete it (and a waiting challenge's intent with it).
    const session = await this.openPaymentSession(request, cartId, cart.payment_collection?.id, signal);
    if (session && 'declined' in session) return { status: 'rejected', reason: 'payment_declined', detail: session.declined };
    if (session)
      return {
        status: 'requires_action',
        continueUrl: session.continueUrl,
        storeReference: cartId,
        detail: 'the card issuer asks the buyer to confirm the payment (3-D Secure)',
      };
    const done = await this.complete(cartId, signal);
    // Another request is completing this cart (a retry racing the first): its order is found by reference.
    if ('busy' in done) return { status: 'pending' };
    if ('refused' in done) return { status: 'rejected', reason: done.reason, detail: done.refused };
    if (request.payment.mode === 'gateway_charged') await this.recordCaptured(done.order, signal);
    return { status: 'placed', orderId: done.orderId };
  }

  /**
   * The cart's payment collection (Medusa answers the cart's existing one) and a session with the
   * finishing mode's provider, which replaces any earlier session. Answers why the provider
   * refused the credential at once (a session in `error`: Stripe declines a card when it confirms
   * the intent), the page where the buyer must act (`requires_more`), or undefined.
   */
  private async openPaymentSession(
    request: PlaceOrderRequest,
    cartId: string,
    collectionId: string | undefined,
    signal?: AbortSignal,
  ): Promise<SessionOutcome> {
    if (!collectionId) {
      const created = await this.client.call('store', '/store/payment-collections', 'payment collection', {
        method: 'POST',
        body: { cart_id: cartId },
        signal,
      });
      collectionId = member<{ id: string }>(created, 'payment_collection', 'payment collection').id;
    }
    const { payment } = request;
    const providerId = this.scope.providers[payment.mode];
    const data =
      payment.mode === 'store_charged'
        ? paymentData(this.scope.paymentData, payment.credential, this.scope.checkoutPage(cartId))
        : { gateway_handler: payment.record.handlerId, gateway_transaction: payment.record.transactionId };
    const answer = await this.client.call('store', `/store/payment-collections/${collectionId}/payment-sessions`, 'payment session', {
      method: 'POST',
      body: { provider_id: providerId, data },
      query: { fields: 'id,*payment_sessions' },
      signal,
    });
    const sessions = member<{ payment_sessions?: MedusaSession[] }>(answer, 'payment_collection', 'payment session').payment_sessions;
    return sessionOutcome(sessions?.find((s) => s.provider_id === providerId));
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

  /** The order now, and as placed (its version 1) when it changed since: the totals are the checkout's. */
  async getOrder(orderId: string, signal?: AbortSignal): Promise<OrderSnapshot | null> {
    const read = async (query: Record<string, unknown>) => {
      const answer = await this.client.call('admin', `/admin/orders/${encodeURIComponent(orderId)}`, 'order read', { query, signal });
      return member<MedusaOrder>(answer, 'order', 'order read');
    };
    let order: MedusaOrder;
    try {
      order = await read({ fields: ORDER_FIELDS });
    } catch (error) {
      if (isUnknown(error)) return null;
      throw error;
    }
    const placed = Number(order.version ?? 1) > 1 ? await read({ fields: CHECKOUT_FIELDS, version: 1 }) : order;
    return toSnapshot(order, placed);
  }

  /** Orders Medusa changed since `sinceIso` (inclusive), oldest first: `GET /admin/orders?updated_at[$gte]=`. */
  async ordersChangedSince(sinceIso: string, signal?: AbortSignal): Promise<OrderChange[]> {
    const changes: OrderChange[] = [];
    const limit = 100;
    for (let offset = 0; ; offset += limit) {
      const answer = await this.client.call('admin', '/admin/orders', 'order changes', {
        query: { updated_at: { $gte: sinceIso }, order: 'updated_at', fields: 'id,updated_at,metadata,cart.id', limit, offset },
        signal,
      });
      const orders = list<{ id: string; updated_at: string; metadata?: Record<string, unknown> | null; cart?: { id?: string } | null }>(
        answer,
        'orders',
        'order changes',
      );
      for (const o of orders)
        changes.push({
          orderId: o.id,
          updatedAt: new Date(o.updated_at).toISOString(),
          ...(typeof o.metadata?.gateway_reference === 'string' && { reference: o.metadata.gateway_reference }),
          ...(o.cart?.id && { storeReference: o.cart.id }),
        });
      if (orders.length < limit) return changes;
    }
  }
}
