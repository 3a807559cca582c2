/**
 * The price step of every checkout operation: the session priced by the store, in the store's own
 * cart (the session's handle), then its status decided for that price. In order: the quote request
 * (its lines, codes and buyer as a cart would be priced, plus what the active extensions add:
 * fulfillment methods), built once; the store's quote, asked once (an extension that settles what
 * the request asked for on that answer, an option sent without its group set on the groups that
 * offer it, needs one more: only then); the status (status.ts); and, when the answer hands the
 * buyer to the store (`requires_escalation`), the store's checkout page, a page newly made for
 * this checkout remembered as a handoff (handoff-record.ts).
 *
 * Pricing happens before the session is written (see state/session-repository.ts); `inputs`
 * says what was priced, so a write that meets a conflict reuses the price when nothing changed.
 */
import type { PickupLocation, Quote, QuoteRequest } from '../../../adapters/contract.js';
import type { Message } from '../../../schemas/common.js';
import type { OperationContext } from '../context.js';
import { fingerprint } from '../../security/fingerprint.js';
import type { CheckoutAsks, CheckoutExtensionState } from '../../extensions/extension.js';
import { checkoutNeedsLocations, priceCheckout as extensionsPricing, settleCheckout, untakenAsks } from '../../extensions/steps.js';
import { callerQuoteRequest } from '../pricing/caller-quote.js';
import { lineRefs, type LineRef } from '../pricing/line-messages.js';
import { storePage, type StorePage } from '../pricing/store-page.js';
import { checkoutLineRefs } from '../order/checkout-lines.js';
import { orderRecipient } from '../order/order-recipient.js';
import type { Locations } from './checkout-inputs.js';
import { challengeLapsed, type CheckoutSession } from './checkout-record.js';
import { paymentConfirmationLapsed } from './completion/messages.js';
import { saveHandoff } from './handoff-record.js';
import { evaluate, statusRules, type Evaluation } from './status.js';

export interface PricedCheckout {
  quote: Quote;
  /** What was priced (with the store's handle): placing the order asks for exactly this. */
  request: QuoteRequest;
  /** The extensions' state where settling changed it (to keep, and to show). */
  settled: Partial<CheckoutExtensionState>;
  /** Choices made for the buyer and options not taken, to tell them about. */
  notices: Message[];
  refs: ReadonlyMap<string, LineRef>;
  /** The store's pickup locations when an extension shows them (pickup destinations). */
  locations: PickupLocation[];
  /** The store's cart after this quote. */
  handle?: string;
  /** The store's checkout page, when the answer hands the buyer over. */
  storePage?: StorePage;
  /** The status of the priced session with what settling changed, as decided for this quote. */
  evaluation: Evaluation;
}

/** What a session is priced from. */
export type PricedSession = CheckoutExtensionState &
  Pick<CheckoutSession, 'id' | 'lines' | 'context' | 'buyer' | 'handle' | 'storePage' | 'verifiedClaims' | 'review' | 'escalation'>;

type CallerQuote = ReturnType<typeof callerQuoteRequest>;

const requestFor = (ctx: OperationContext, session: PricedSession): CallerQuote =>
  callerQuoteRequest(ctx, session, extensionsPricing(ctx, session));

/** What pricing a session reads: `key` identifies it (SessionRepository.changePriced), `quote` is its quote request. */
export interface PricingInputs {
  key: string;
  quote: CallerQuote;
}

/** What pricing `session` reads; `priceCheckout` of the same session takes it back, so its request is built once. */
export function pricingInputs(ctx: OperationContext, session: PricedSession, extra: unknown = null): PricingInputs {
  const quote = requestFor(ctx, session);
  const key = fingerprint([
    session.id,
    JSON.stringify(quote.request),
    JSON.stringify([session.storePage ?? null, session.review ?? null, session.escalation ?? null, extra]),
  ]);
  return { key, quote };
}

/** Discounts of verified claims are no longer provisional (they are settled at completion). */
function settleVerified(quote: Quote, verified: readonly string[] | undefined): Quote {
  if (!verified?.length) return quote;
  const applied = quote.discounts.applied.map((d) =>
    d.provisional && d.eligibility && verified.includes(d.eligibility) ? { ...d, provisional: false } : d,
  );
  return { ...quote, discounts: { ...quote.discounts, applied } };
}

interface PricingOptions {
  /** What the request asked the extensions to settle on the store's answer. */
  asks?: Partial<CheckoutAsks>;
  /**
   * A price made earlier in the same request, with nothing sent to the store since but the
   * reference of a page (a handoff): of this session, or of the one a create made from the same
   * cart and gave up to another conversion. When it priced exactly this request (the store's cart
   * included), its quote is reused instead of asking the store again.
   */
  earlier?: PricedCheckout;
  /** `pricingInputs` of this very session, whose quote request is then not built again. */
  inputs?: PricingInputs;
}

export async function priceCheckout(
  ctx: OperationContext,
  session: PricedSession,
  locations: Locations,
  { asks = {}, earlier, inputs }: PricingOptions = {},
): Promise<PricedCheckout> {
  const first = inputs?.quote ?? requestFor(ctx, session);
  const { notices } = first;
  let { request } = first;
  const quoteOf = (asked: QuoteRequest) =>
    earlier && JSON.stringify(asked) === JSON.stringify(earlier.request)
      ? earlier.quote
      : ctx.tenant.adapter.quote({ ...asked, reference: session.id }, undefined, ctx.client);
  let quote = await quoteOf(request);
  let handle = quote.handle ?? session.handle;
  const settled = settleCheckout(ctx, session, asks, quote) ?? {};
  // A payment challenge the buyer did not act on in time no longer holds the checkout (completion/challenge.ts).
  const lapsed = challengeLapsed(session, ctx.now());
  const current = { ...session, ...settled, ...(lapsed && { escalation: undefined }) };
  if (Object.keys(settled).length > 0) {
    request = requestFor(ctx, { ...current, handle }).request;
    quote = await quoteOf(request);
    handle = quote.handle ?? handle;
  }
  request = handle === undefined ? request : { ...request, handle };
  quote = settleVerified(quote, session.verifiedClaims);
  const evaluation = evaluate(current, quote, statusRules(ctx));
  const priced: PricedCheckout = {
    quote,
    request,
    settled,
    notices: [...notices, ...(lapsed ? [paymentConfirmationLapsed()] : []), ...untakenAsks(ctx, asks, quote)],
    refs: lineRefs(session.lines),
    locations: checkoutNeedsLocations(ctx, current) ? await locations() : [],
    ...(handle !== undefined && { handle }),
    evaluation,
  };
  const escalates = evaluation.status === 'requires_escalation';
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
  if (made.fresh) {
    const links = {
      lines: checkoutLineRefs(priced.quote.lines),
      ...(made.page.storeReference && { storeReference: made.page.storeReference }),
    };
    await saveHandoff(ctx, session.id, orderRecipient(ctx), links);
  }
  const handle = made.handle ?? priced.handle;
  return { ...priced, storePage: made.page, ...(handle !== undefined && { handle }) };
}
