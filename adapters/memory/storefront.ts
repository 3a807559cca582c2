/**
 * The demo store's checkout page, for handed-off checkouts: the page is a cart permalink
 * ({storefront}/cart/{variantId}:{qty},...?discount=A,B&ref=REFERENCE), so the store keeps no
 * cart (no handle). `purchase` is what a buyer paying on that page does: the store prices the
 * permalink's items and codes for the buyer's address with the cheapest option of every group
 * and places the order carrying the reference, paid on the store. A store that keeps no
 * reference of the gateway names its own cart instead (`cart=cart_…`, the page's store reference),
 * and its order carries that. Payments waiting for the buyer have a page of their own ({storefront}/pay/{id}).
 */
import { createHash } from 'node:crypto';
import type { BuyerContact, CheckoutPage, CheckoutUrlRequest, PostalAddress, QuoteRequest } from '../contract.js';
import { appliedCodes } from './discounts.js';
import { priceLines } from './lines.js';
import type { StoreData } from './model.js';
import { quote } from './quote.js';

/**
 * The page carries what a quote of the request prices: its priced lines and applied codes (in
 * stacking order); only those are worked out, not the rest of a quote (fulfillment, tax, totals).
 */
export function checkoutPage(
  data: StoreData,
  storefrontUrl: string,
  request: CheckoutUrlRequest,
  now: number,
  keepsReference = true,
): CheckoutPage {
  const { priced } = priceLines(data, request.quote.lines);
  const items = priced.map(({ quoted: l }) => `${encodeURIComponent(l.variantId)}:${l.quantity}`).join(',');
  const codes = appliedCodes(data, request.quote, priced, now).map((code) => encodeURIComponent(code));
  // The store's own cart for the session: stable for it, unrelated to the gateway's id in form.
  const cart = `cart_${createHash('sha256').update(request.reference).digest('hex').slice(0, 16)}`;
  const link = keepsReference ? `ref=${encodeURIComponent(request.reference)}` : `cart=${cart}`;
  const query = [...(codes.length > 0 ? [`discount=${codes.join(',')}`] : []), link];
  return { url: `${storefrontUrl}/cart/${items}?${query.join('&')}`, ...(!keepsReference && { storeReference: cart }) };
}

/** The store's page where the buyer confirms a payment waiting for them. */
export const paymentPage = (storefrontUrl: string, paymentId: string) => `${storefrontUrl}/pay/${encodeURIComponent(paymentId)}`;

export class StorefrontError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StorefrontError';
  }
}

/** What the buyer bought on the page at `url`: the quote request with the cheapest shipping, and the reference. */
export function storefrontPurchase(data: StoreData, storefrontUrl: string, url: string, address: PostalAddress, now: number) {
  if (!url.startsWith(`${storefrontUrl}/cart/`)) throw new StorefrontError(`${url} is not a checkout page of this store`);
  const page = new URL(url);
  const storeReference = page.searchParams.get('cart') ?? undefined;
  // A page of a store that keeps no reference places once per its own cart.
  const reference = page.searchParams.get('ref') ?? storeReference;
  if (!reference) throw new StorefrontError(`${url} carries no reference`);
  const items = decodeURIComponent(page.pathname.slice(new URL(`${storefrontUrl}/cart/`).pathname.length))
    .split(',')
    .filter(Boolean);
  const lines = items.map((item, i) => {
    const [variantId, quantity] = item.split(':');
    return { lineId: `line_${i + 1}`, variantId: variantId!, quantity: Number(quantity) };
  });
  const base: QuoteRequest = { lines, discountCodes: page.searchParams.get('discount')?.split(',').filter(Boolean) ?? [] };
  const shipped = quote(data, base, now)
    .lines.filter((l) => l.requiresShipping)
    .map((l) => l.lineId);
  const method = { methodId: 'storefront', type: 'shipping' as const, lineIds: shipped, destination: { address } };
  const withRates = shipped.length > 0 ? quote(data, { ...base, fulfillment: { multiGroup: false, methods: [method] } }, now) : undefined;
  const selectedOptions = Object.fromEntries(
    (withRates?.fulfillment?.[0]?.groups ?? []).flatMap((g) => (g.options[0] ? [[g.key, g.options[0].id]] : [])),
  );
  const request: QuoteRequest =
    shipped.length > 0 ? { ...base, fulfillment: { multiGroup: false, methods: [{ ...method, selectedOptions }] } } : base;
  return { reference, ...(storeReference && { storeReference }), request, total: quote(data, request, now).totals.total };
}

export type StorefrontBuyer = BuyerContact & { email: string };
