/**
 * Finishing a checkout on Shopify: by handoff, the cart's own `checkoutUrl`, the gateway's checkout
 * id kept as a cart attribute that Shopify copies onto the order placed there; or, for a gateway
 * payment handler, the checkout's cart made a draft order (same lines, codes, address and
 * shipping; tagged and attributed with the reference) completed as paid.
 */
import type {
  CheckoutPage,
  CheckoutUrlRequest,
  PaymentRecord,
  PlaceOrderRequest,
  PlaceOrderResult,
  Quote,
  RequestContext,
} from '../contract.js';
import { BackendError } from '../contract.js';
import type { ShopifyCarts } from './cart.js';
import { cartGone, readHandle } from './cart-sync.js';
import type { SfCart, SfCartPayload } from './cart-types.js';
import type { ShopifyClient } from './client.js';
import * as Q from './documents.js';
import { cartTokenOf, orderIdOf, REFERENCE_ATTRIBUTE, referenceTag } from './ids.js';
import { money } from './money.js';
import type { Draft, ShopifyOrders } from './orders.js';
import type { draftFor } from './tax.js';

type DraftInput = NonNullable<ReturnType<typeof draftFor>>;
type Rejected = Extract<PlaceOrderResult, { status: 'rejected' }>;
type DraftPayload<K extends string> = Record<K, { draftOrder: Draft | null; userErrors: Array<{ message: string }> }>;

const messages = (errors: Array<{ message: string }>) => errors.map((e) => e.message).join('; ');

export class ShopifyCheckout {
  constructor(
    private readonly client: ShopifyClient,
    private readonly carts: ShopifyCarts,
    private readonly orders: ShopifyOrders,
  ) {}

  /**
   * The cart's checkout page, with the reference as a cart attribute; a cart made here when the
   * session has none. The order placed there carries the cart's token (`Order.cartToken`): the
   * page's store reference.
   */
  async checkoutUrl(request: CheckoutUrlRequest, signal?: AbortSignal, context?: RequestContext): Promise<CheckoutPage> {
    const page = await this.page(request, signal, context);
    const cart = readHandle(page.handle ?? request.handle)!.cart;
    return { ...page, storeReference: cartTokenOf(cart) };
  }

  private async page(
    request: CheckoutUrlRequest,
    signal?: AbortSignal,
    context?: RequestContext,
  ): Promise<{ url: string; handle?: string }> {
    let handle = request.handle;
    let made: string | undefined;
    if (!readHandle(handle)) {
      made = handle = (await this.carts.quote({ ...request.quote, handle: undefined, reference: request.reference }, signal, context))
        .handle;
    }
    const kept = readHandle(handle)!;
    const cartId = kept.cart;
    // The cart carries the reference since its creation (or since an earlier call here): no call.
    if (kept.url && kept.reference === request.reference) return { url: kept.url, ...(made && { handle: made }) };
    const seen = this.carts.checkoutPage(cartId);
    if (seen?.reference === request.reference) return { url: seen.url, ...(made && { handle: made }) };
    const { cartAttributesUpdate: result } = await this.client.storefront<{
      cartAttributesUpdate: { cart: Pick<SfCart, 'id' | 'checkoutUrl' | 'attributes'> | null; userErrors: SfCartPayload['userErrors'] };
    }>(Q.CART_ATTRIBUTES, { cartId, attributes: [{ key: REFERENCE_ATTRIBUTE, value: request.reference }] }, signal, context?.clientIp);
    if (!result.cart) {
      if (!made && cartGone(result.userErrors)) return this.page({ ...request, handle: undefined }, signal, context);
      throw new BackendError(`Shopify refused the cart attribute: ${messages(result.userErrors)}`, false);
    }
    this.carts.remember(result.cart);
    return { url: result.cart.checkoutUrl, ...(made && { handle: made }) };
  }

  /**
   * gateway_charged: the checkout's cart becomes a draft order completed as paid. Once per
   * reference: an order or a draft already made for it is reused.
   */
  async placeOrder(request: PlaceOrderRequest, signal?: AbortSignal): Promise<PlaceOrderResult> {
    if (request.payment.mode !== 'gateway_charged')
      return { status: 'rejected', reason: 'incomplete', detail: 'Shopify cannot charge a payment credential through its API.' };
    const { order, open } = await this.orders.placedFor(request.reference, signal);
    if (order) return { status: 'placed', ...order };
    // A draft order has a shipping line, no pickup location: pickup orders are placed on Shopify's checkout.
    if (request.quote.fulfillment?.methods.some((m) => m.type === 'pickup' && m.lineIds.length > 0))
      return { status: 'rejected', reason: 'incomplete', detail: "Pickup orders are placed on the store's own checkout page." };
    const { quote, draft } = await this.carts.priceCart(request.quote, signal);
    const refused = refusal(quote, draft, request.expectedTotal);
    if (refused) return refused;
    const made = open ?? (await this.draftOrder(request, request.payment.record, draft!, signal));
    if ('reason' in made) return made;
    return this.complete(made, request.expectedTotal, signal);
  }

  /** A new draft order from the priced cart, tagged with the reference; rejected when Shopify refuses it. */
  private async draftOrder(
    request: PlaceOrderRequest,
    record: PaymentRecord,
    draft: DraftInput,
    signal?: AbortSignal,
  ): Promise<Draft | Rejected> {
    const input = {
      ...draft,
      email: request.buyer.email,
      tags: [referenceTag(request.reference)],
      customAttributes: [{ key: REFERENCE_ATTRIBUTE, value: request.reference }],
      note: `Paid through ${record.handlerId} (transaction ${record.transactionId}).`,
    };
    const { draftOrderCreate } = await this.client.admin<DraftPayload<'draftOrderCreate'>>(Q.DRAFT_ORDER_CREATE, { input }, signal);
    return draftOrderCreate.draftOrder ?? { status: 'rejected', reason: 'incomplete', detail: messages(draftOrderCreate.userErrors) };
  }

  /** Completes the draft as paid when it totals what the buyer agreed to. */
  private async complete(made: Draft, expectedTotal: number, signal?: AbortSignal): Promise<PlaceOrderResult> {
    const actualTotal = money(made.totalPriceSet.presentmentMoney);
    if (actualTotal !== expectedTotal)
      return { status: 'rejected', reason: 'price_changed', detail: 'The store prices this order differently.', actualTotal };
    const { draftOrderComplete } = await this.client.admin<DraftPayload<'draftOrderComplete'>>(
      Q.DRAFT_ORDER_COMPLETE,
      { id: made.id },
      signal,
    );
    const order = draftOrderComplete.draftOrder?.order;
    if (!order) throw new BackendError(`Shopify did not complete the draft order: ${messages(draftOrderComplete.userErrors)}`, false);
    return { status: 'placed', orderId: orderIdOf(order.id), permalinkUrl: order.statusPageUrl };
  }
}

/**
 * Why the priced cart cannot be placed as checked out: a line no longer sellable, no draft order
 * yet (an address or an option missing), a moved total. Undefined only with a draft.
 */
function refusal(quote: Quote, draft: DraftInput | undefined, expectedTotal: number): Rejected | undefined {
  const unsellable = quote.lineProblems.find((p) => p.code !== 'insufficient_stock' && p.code !== 'invalid_quantity');
  if (unsellable || quote.lineProblems.length) {
    return {
      status: 'rejected',
      reason: unsellable?.code === 'not_found' ? 'incomplete' : 'out_of_stock',
      detail: 'A line can no longer be bought as checked out.',
    };
  }
  if (!draft)
    return { status: 'rejected', reason: 'incomplete', detail: 'A shipping address and an option for every delivery group are needed.' };
  if (quote.totals.total !== expectedTotal) {
    return {
      status: 'rejected',
      reason: 'price_changed',
      detail: 'The store prices this checkout differently now.',
      actualTotal: quote.totals.total,
    };
  }
  return undefined;
}
