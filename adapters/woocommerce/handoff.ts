/**
 * The store's checkout page for a session (`checkoutUrl`, asked for carts and for checkouts the
 * gateway hands off):
 * - a checkout that can be placed (lines priced, every parcel with a selected rate, or nothing to
 *   ship and the buyer's email known): a pending order created through `wc/v3/orders` with the
 *   lines, codes, shipping lines at the quoted rates and the gateway's reference in its meta; the
 *   page is the order's `payment_url` ("Pay for order"), so the order the buyer pays is matched to
 *   the session when the store reports it. A session that changes gets a new order (the
 *   superseded one is cancelled); an unchanged one keeps its order and URL (no store call);
 * - a cart, or a checkout not yet complete: the store's shareable checkout link
 *   (`/checkout-link/?products=ID:QTY,...&coupon=CODE`, WooCommerce 9.9+), which fills the
 *   store's own cart and checkout page.
 */
import { createHash } from 'node:crypto';
import { BackendError, type CheckoutUrlRequest, type Quote, type QuoteRequest } from '../contract.js';
import type { AdapterStore } from '../contract.js';
import { destinationOf, wcAddress } from './addresses.js';
import type { Catalog } from './catalog.js';
import { isWpError, unexpected, type WooHttp } from './http.js';
import { REFERENCE_META } from './order-map.js';
import { cancelIfTotalMoved, orderLines } from './orders.js';
import type { StoreInfo } from './store-info.js';
import { decodeVariantId } from './variant-id.js';
import { expectShape, WcOrder } from './wc-shapes.js';

const TTL_MS = 30 * 86_400_000;

interface HandoffEntry {
  orderId: string;
  fingerprint: string;
  url: string;
}

export interface HandoffDeps {
  http: WooHttp;
  info: StoreInfo;
  catalog: Catalog;
  state: AdapterStore;
  tenantId: string;
  storeUrl: string;
  /** The quote of this request, as priced moments ago (or priced now). */
  priced(request: QuoteRequest, handle: string | undefined, signal?: AbortSignal): Promise<Quote>;
}

/** What a session holds, without the store cart it is kept in. */
export function sessionFingerprint(request: QuoteRequest): string {
  const { handle: _handle, reference: _reference, ...rest } = request;
  return createHash('sha256').update(JSON.stringify(rest)).digest('base64url').slice(0, 22);
}

function placeable(request: QuoteRequest, quote: Quote): boolean {
  if (quote.lines.length === 0 || quote.lineProblems.length > 0) return false;
  if (!quote.fulfillment) return Boolean(request.buyer?.email) && quote.lines.every((l) => !l.requiresShipping);
  return quote.fulfillment.every((m) => m.groups.every((g) => g.lineIds.length === 0 || Boolean(g.selectedOptionId)));
}

export class Handoff {
  constructor(private readonly deps: HandoffDeps) {}

  private key(reference: string): string {
    return `adapter:woocommerce:${this.deps.tenantId}:handoff:${reference}`;
  }

  /**
   * The store's shareable checkout link for these lines and the first code, with the reference as
   * `proto_ref` (kept on the order by the reference snippet of docs/adapters/woocommerce.md).
   */
  checkoutLink(request: QuoteRequest, reference: string): string {
    const products = request.lines.flatMap((l) => {
      const ref = decodeVariantId(l.variantId);
      return ref ? [`${ref.id}:${l.quantity}`] : [];
    });
    const coupon = request.discountCodes[0];
    const query = [
      `products=${products.join(',')}`,
      ...(coupon ? [`coupon=${encodeURIComponent(coupon)}`] : []),
      `proto_ref=${encodeURIComponent(reference)}`,
    ];
    return `${this.deps.storeUrl}/checkout-link/?${query.join('&')}`;
  }

  /** The pending order a handed-off session was given, if any. */
  async orderOf(reference: string): Promise<string | undefined> {
    return (await this.deps.state.get<HandoffEntry>(this.key(reference)))?.value.orderId;
  }

  async checkoutUrl(request: CheckoutUrlRequest, signal?: AbortSignal): Promise<{ url: string; handle?: string }> {
    const handle = request.handle ? { handle: request.handle } : {};
    const fingerprint = sessionFingerprint(request.quote);
    const entry = (await this.deps.state.get<HandoffEntry>(this.key(request.reference)))?.value;
    if (entry?.fingerprint === fingerprint) return { url: entry.url, ...handle };
    const quote = await this.deps.priced(request.quote, request.handle, signal);
    if (!placeable(request.quote, quote))
      return { url: this.checkoutLink(request.quote, request.reference), ...(quote.handle && { handle: quote.handle }) };

    const lines = await orderLines(this.deps, quote, signal);
    const buyer = request.quote.buyer;
    const destination = destinationOf(request.quote);
    const body = {
      status: 'pending',
      billing: {
        ...wcAddress(destination),
        first_name: buyer?.firstName ?? '',
        last_name: buyer?.lastName ?? '',
        email: buyer?.email ?? '',
        phone: buyer?.phone ?? '',
      },
      shipping: wcAddress(destination),
      ...lines,
      meta_data: [{ key: REFERENCE_META, value: request.reference }],
    };
    const response = await this.deps.http.rest('POST', 'orders', { data: body }, signal);
    if (response.status !== 201 && response.status !== 200) throw unexpected('POST wc/v3/orders', response.body);
    const order = expectShape(WcOrder, response.body, 'POST wc/v3/orders');
    if (!order.payment_url) throw unexpected('POST wc/v3/orders', { code: 'no_payment_url', message: 'the order has no payment_url' });
    // The buyer must be asked to pay what the agent was quoted, not what the order came to.
    const moved = await cancelIfTotalMoved(this.deps.http, order, quote.totals.total, signal);
    if (moved) throw new BackendError(`the store's order for the handoff: ${moved.detail}`, false);
    if (entry) await this.cancel(entry.orderId, signal);
    await this.deps.state.set<HandoffEntry>(
      this.key(request.reference),
      { orderId: String(order.id), fingerprint, url: order.payment_url },
      TTL_MS,
    );
    return { url: order.payment_url, ...(quote.handle && { handle: quote.handle }) };
  }

  /** Cancels a superseded pending order; one already paid or gone is left as it is. */
  private async cancel(orderId: string, signal?: AbortSignal): Promise<void> {
    const read = await this.deps.http.rest('GET', `orders/${orderId}`, {}, signal);
    if (read.status !== 200 || isWpError(read.body)) return;
    if (expectShape(WcOrder, read.body, `GET wc/v3/orders/${orderId}`).status !== 'pending') return;
    await this.deps.http.rest('PUT', `orders/${orderId}`, { data: { status: 'cancelled' } }, signal);
  }
}
