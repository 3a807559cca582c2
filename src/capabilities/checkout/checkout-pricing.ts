/**
 * Prices a checkout with the store, in the store's own cart (the session's handle): its lines,
 * codes and buyer as a cart would be priced, plus the fulfillment methods when the extension is
 * active. Options asked for without a group are set on the groups that offer them and the
 * checkout is priced again (only then). When the answer hands the buyer to the store
 * (`requires_escalation` decided by status.ts), the store's checkout page comes with it; a page
 * newly made for this checkout is remembered as a handoff (handoff-record.ts).
 *
 * Pricing happens before the session is written (see state/session-repository.ts); `inputs`
 * says what was priced, so a write that meets a conflict reuses the price when nothing changed.
 */
import type { PickupLocation, Quote, QuoteRequest } from '../../../adapters/contract.js';
import type { Message } from '../../../schemas/common.js';
import type { OperationContext } from '../../operations/context.js';
import { fingerprint } from '../../security/fingerprint.js';
import { fulfillmentActive, supportsMultiGroup } from '../../extensions/fulfillment/active.js';
import type { AskedOption, StoredMethod } from '../../extensions/fulfillment/method-record.js';
import { applyLooseOptions, methodRequests, untakenOptions } from '../../extensions/fulfillment/quote-methods.js';
import { callerQuoteRequest } from '../pricing/caller-quote.js';
import { lineRefs, type LineRef } from '../pricing/line-messages.js';
import { storePage, type StorePage } from '../pricing/store-page.js';
import type { CheckoutSession } from './checkout-record.js';
import { saveHandoff } from './handoff-record.js';
import { orderRecipient } from './order-placement.js';
import { evaluate, statusRules } from './status.js';

export interface PricedCheckout {
  quote: Quote;
  /** What was priced (with the store's handle): placing the order asks for exactly this. */
  request: QuoteRequest;
  /** The fulfillment methods as priced (to keep, and to show when the extension is active). */
  methods: StoredMethod[];
  /** Choices made for the buyer and options not taken, to tell them about. */
  notices: Message[];
  refs: ReadonlyMap<string, LineRef>;
  /** The store's pickup locations when a method is pickup (to show them as destinations). */
  locations: PickupLocation[];
  /** The store's cart after this quote. */
  handle?: string;
  /** The store's checkout page, when the answer hands the buyer over. */
  storePage?: StorePage;
}

/** What a session is priced from. */
export type PricedSession = Pick<
  CheckoutSession,
  | 'id'
  | 'lines'
  | 'context'
  | 'buyer'
  | 'discountCodes'
  | 'fulfillment'
  | 'handle'
  | 'storePage'
  | 'rejectedClaims'
  | 'verifiedClaims'
  | 'review'
  | 'escalation'
>;

/** The store's pickup locations, asked for at most once per request. */
export type Locations = () => Promise<PickupLocation[]>;

export function pickupLocationsOnce(ctx: OperationContext): Locations {
  let locations: Promise<PickupLocation[]> | undefined;
  return () => (locations ??= ctx.tenant.adapter.pickupLocations());
}

/** Several groups per method only when both the platform and the store can (else one group: the store's fallback). */
const multiGroup = (ctx: OperationContext) => supportsMultiGroup(ctx.caller) && ctx.tenant.adapter.capabilities.multiGroup;

function requestFor(
  ctx: OperationContext,
  session: PricedSession,
  methods: readonly StoredMethod[],
): { request: QuoteRequest; notices: Message[] } {
  const { request, notices } = callerQuoteRequest(ctx, session);
  if (!fulfillmentActive(ctx.caller)) return { request, notices };
  const lineIds = session.lines.map((line) => line.id);
  return { request: { ...request, fulfillment: { methods: methodRequests(methods, lineIds), multiGroup: multiGroup(ctx) } }, notices };
}

/** Fingerprint of what pricing `session` reads (see SessionRepository.changePriced). */
export function pricingInputs(ctx: OperationContext, session: PricedSession, extra: unknown = null): string {
  const { request } = requestFor(ctx, session, session.fulfillment);
  return fingerprint([
    session.id,
    JSON.stringify(request),
    JSON.stringify([session.storePage ?? null, session.review ?? null, session.escalation ?? null, extra]),
  ]);
}

/** Discounts of verified claims are no longer provisional (they are settled at completion). */
function settleVerified(quote: Quote, verified: readonly string[] | undefined): Quote {
  if (!verified?.length) return quote;
  const applied = quote.discounts.applied.map((d) =>
    d.provisional && d.eligibility && verified.includes(d.eligibility) ? { ...d, provisional: false } : d,
  );
  return { ...quote, discounts: { ...quote.discounts, applied } };
}

export async function priceCheckout(
  ctx: OperationContext,
  session: PricedSession,
  locations: Locations,
  asked: readonly AskedOption[] = [],
): Promise<PricedCheckout> {
  let methods = session.fulfillment;
  let { request, notices } = requestFor(ctx, session, methods);
  let quote = await ctx.tenant.adapter.quote(request, undefined, ctx.client);
  let handle = quote.handle ?? session.handle;
  const withLoose = applyLooseOptions(methods, asked, quote);
  if (withLoose) {
    methods = withLoose;
    request = requestFor(ctx, { ...session, handle }, methods).request;
    quote = await ctx.tenant.adapter.quote(request, undefined, ctx.client);
    handle = quote.handle ?? handle;
  }
  request = handle === undefined ? request : { ...request, handle };
  quote = settleVerified(quote, session.verifiedClaims);
  const priced: PricedCheckout = {
    quote,
    request,
    methods,
    notices: [...notices, ...untakenOptions(asked, quote)],
    refs: lineRefs(session.lines),
    locations: fulfillmentActive(ctx.caller) && methods.some((m) => m.type === 'pickup') ? await locations() : [],
    ...(handle !== undefined && { handle }),
  };
  const escalates = evaluate({ ...session, fulfillment: methods }, quote, statusRules(ctx)).status === 'requires_escalation';
  return escalates && !session.escalation ? withStorePage(ctx, session, priced) : priced;
}

/**
 * The priced checkout with the store's checkout page for it: the answer hands the buyer over
 * (`requires_escalation`). A page newly made for the session is remembered as a handoff.
 */
export async function withStorePage(
  ctx: OperationContext,
  session: Pick<CheckoutSession, 'id' | 'storePage'>,
  priced: PricedCheckout,
): Promise<PricedCheckout> {
  if (priced.storePage) return priced;
  const made = await storePage(ctx, session.id, priced.request, session.storePage);
  if (made.fresh) await saveHandoff(ctx, session.id, orderRecipient(ctx));
  const handle = made.handle ?? priced.handle;
  return { ...priced, storePage: made.page, ...(handle !== undefined && { handle }) };
}

/** The session with the store's cart and page it was priced with. */
export function withStoreCart<S extends CheckoutSession>(session: S, priced: PricedCheckout): S {
  const { handle: _handle, storePage: _page, ...rest } = session;
  return {
    ...rest,
    ...(priced.handle !== undefined && { handle: priced.handle }),
    ...(priced.storePage && { storePage: priced.storePage }),
  } as S;
}
