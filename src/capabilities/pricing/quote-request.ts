/**
 * What a cart or checkout asks the store to price: its lines, the buyer's signals and the
 * discount inputs, as an adapter `QuoteRequest`. Checkout adds `fulfillment` to the result.
 */
import type { BuyerContact, BuyerIdentity, QuoteRequest } from '../../../adapters/contract.js';
import type { Buyer, Context, Message } from '../../../schemas/common.js';
import { chooseCurrency } from './currency.js';
import { locationHint } from './location.js';

export interface PricedLineInput {
  /** The gateway's line id (see line-ids.ts). */
  id: string;
  /** The store's variant id. */
  itemId: string;
  quantity: number;
}

export interface PricingInput {
  lines: readonly PricedLineInput[];
  context?: Context | undefined;
  buyer?: Buyer | undefined;
  /** The verified buyer (see buyer-identity.ts); absent = a guest. */
  identity?: BuyerIdentity | undefined;
  /** Codes as submitted, in order; [] when the discount extension is not active. */
  discountCodes: readonly string[];
  /** Price the claims of `context.eligibility` (only when the caller can be shown provisional discounts). */
  eligibility: boolean;
  /** The store's currencies, default first. */
  currencies: readonly string[];
  handle?: string;
}

function buyerContact(buyer: Buyer | undefined): BuyerContact | undefined {
  if (!buyer) return undefined;
  const contact: BuyerContact = {
    ...(buyer.email !== undefined && { email: buyer.email }),
    ...(buyer.first_name !== undefined && { firstName: buyer.first_name }),
    ...(buyer.last_name !== undefined && { lastName: buyer.last_name }),
    ...(buyer.phone_number !== undefined && { phone: buyer.phone_number }),
  };
  return Object.keys(contact).length > 0 ? contact : undefined;
}

/** The request, plus notices for the buyer about choices made on their behalf (currency). */
export function quoteRequest(input: PricingInput): { request: QuoteRequest; notices: Message[] } {
  const { currency, notice } = chooseCurrency(input.context?.currency, input.currencies);
  const buyer = buyerContact(input.buyer);
  const location = locationHint(input.context);
  const claims = input.eligibility ? input.context?.eligibility : undefined;
  const request: QuoteRequest = {
    ...(input.handle !== undefined && { handle: input.handle }),
    currency,
    lines: input.lines.map((line) => ({ lineId: line.id, variantId: line.itemId, quantity: line.quantity })),
    ...(buyer && { buyer }),
    ...(input.identity && { identity: input.identity }),
    ...(location && { location }),
    discountCodes: [...input.discountCodes],
    ...(claims?.length && { eligibilityClaims: [...claims] }),
  };
  return { request, notices: notice ? [notice] : [] };
}
