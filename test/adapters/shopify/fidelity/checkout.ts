/**
 * A checkout as the gateway drives the Shopify adapter: quote with an address, choose the first
 * delivery option, quote again (now with Shopify's tax), then place it paid (gateway_charged).
 */
import type { PlaceOrderResult, Quote, QuoteRequest } from '../../../../adapters/contract.js';
import { newCheckoutId } from '../../../../src/capabilities/checkout/checkout-record.js';
import type { ShopifySetup } from '../helpers.js';

const CHICAGO = { streetAddress: '233 S Wacker Dr', locality: 'Chicago', region: 'IL', country: 'US', postalCode: '60606' };

export function shippingRequest(lines: QuoteRequest['lines'], selectedOptions?: Record<string, string>): QuoteRequest {
  return {
    lines,
    discountCodes: [],
    buyer: { email: 'ann@example.com' },
    fulfillment: {
      multiGroup: false,
      methods: [
        {
          methodId: 'm1',
          type: 'shipping',
          lineIds: lines.map((l) => l.lineId),
          destination: { address: CHICAGO },
          ...(selectedOptions && { selectedOptions }),
        },
      ],
    },
  };
}

/** Quotes `lines` to Chicago with the cheapest delivery option selected: the final quote and its request. */
export async function readyQuote(s: ShopifySetup, lines: QuoteRequest['lines']): Promise<{ request: QuoteRequest; quote: Quote }> {
  const first = await s.adapter.quote(shippingRequest(lines));
  const group = first.fulfillment![0]!.groups[0]!;
  const request = { ...shippingRequest(lines, { [group.key]: group.options[0]!.id }), handle: first.handle! };
  const quote = await s.adapter.quote(request);
  return { request: { ...request, handle: quote.handle! }, quote };
}

/** Places a ready quote as the gateway does after its payment handler charged `quote.totals.total`. */
export function placePaid(s: ShopifySetup, request: QuoteRequest, quote: Quote, reference = newCheckoutId()): Promise<PlaceOrderResult> {
  const amount = quote.totals.total;
  return s.adapter.placeOrder({
    reference,
    quote: request,
    expectedTotal: amount,
    buyer: { email: 'ann@example.com' },
    payment: { mode: 'gateway_charged', record: { handlerId: 'sandbox', transactionId: `tx_${reference}`, amount } },
  });
}
