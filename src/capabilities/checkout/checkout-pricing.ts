/**
 * Prices a checkout with the store: its lines, codes and buyer as a cart would be priced, plus
 * the fulfillment methods when the extension is active. Options asked for without a group are set
 * on the groups that offer them and the checkout is priced again (only then).
 */
import type { PickupLocation, Quote, QuoteRequest } from '../../../adapters/contract.js';
import type { Message } from '../../../schemas/common.js';
import type { OperationContext } from '../../operations/context.js';
import { fulfillmentActive, supportsMultiGroup } from '../../extensions/fulfillment/active.js';
import type { AskedOption, StoredMethod } from '../../extensions/fulfillment/method-record.js';
import { applyLooseOptions, methodRequests, untakenOptions } from '../../extensions/fulfillment/quote-methods.js';
import { callerQuoteRequest } from '../pricing/caller-quote.js';
import { lineRefs, type LineRef } from '../pricing/line-messages.js';
import type { CheckoutInputs } from './checkout-record.js';

export interface PricedCheckout {
  quote: Quote;
  /** What was priced: placing the order asks for exactly this. */
  request: QuoteRequest;
  /** The fulfillment methods as priced (to keep, and to show when the extension is active). */
  methods: StoredMethod[];
  /** Choices made for the buyer and options not taken, to tell them about. */
  notices: Message[];
  refs: ReadonlyMap<string, LineRef>;
  /** The store's pickup locations when a method is pickup (to show them as destinations). */
  locations: PickupLocation[];
  /** The store's checkout page for this session (`continue_url`). */
  storeUrl: string;
}

/** The store's pickup locations, asked for at most once per request. */
export type Locations = () => Promise<PickupLocation[]>;

export function pickupLocationsOnce(ctx: OperationContext): Locations {
  let locations: Promise<PickupLocation[]> | undefined;
  return () => (locations ??= ctx.tenant.adapter.pickupLocations());
}

export async function priceCheckout(
  ctx: OperationContext,
  inputs: CheckoutInputs & { id: string },
  locations: Locations,
  asked: readonly AskedOption[] = [],
): Promise<PricedCheckout> {
  const { request: base, notices } = callerQuoteRequest(ctx, inputs);
  const active = fulfillmentActive(ctx.caller);
  const lineIds = inputs.lines.map((line) => line.id);
  const multiGroup = supportsMultiGroup(ctx.caller);
  const requestFor = (methods: readonly StoredMethod[]): QuoteRequest =>
    active ? { ...base, fulfillment: { methods: methodRequests(methods, lineIds), multiGroup } } : base;

  let methods = inputs.fulfillment;
  let request = requestFor(methods);
  let quote = await ctx.tenant.adapter.quote(request);
  const withLoose = applyLooseOptions(methods, asked, quote);
  if (withLoose) {
    methods = withLoose;
    request = requestFor(methods);
    quote = await ctx.tenant.adapter.quote(request);
  }
  const page = await ctx.tenant.adapter.checkoutUrl({ reference: inputs.id, ...(quote.handle && { handle: quote.handle }), quote: request });
  return {
    quote,
    request,
    storeUrl: page.url,
    methods,
    notices: [...notices, ...untakenOptions(asked, quote)],
    refs: lineRefs(inputs.lines),
    locations: active && methods.some((m) => m.type === 'pickup') ? await locations() : [],
  };
}
