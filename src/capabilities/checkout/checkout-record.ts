/**
 * A checkout session as the state store keeps it: the platform's inputs (lines with their ids,
 * context, buyer, codes, fulfillment choices, instruments without credentials), its status, and
 * what the status machine needs to remember: the totals last shown (price changes are detected
 * against them at complete), a pending review or escalation, the completion claim while an order
 * is being placed, and the final view once nothing changes any more. Besides, the store's own cart
 * (`handle`) and page, and the eligibility claims settled at completion.
 */
import { randomId } from '../../security/random-id.js';
import type { OperationContext } from '../context.js';
import { ownedByCaller } from '../cart/ownership.js';
import type { PlaceOrderRequest } from '../../../adapters/contract.js';
import type { Checkout, CheckoutStatus } from '../../../schemas/checkout.js';
import type { Attribution, Buyer, Context, Message, Signals, Total } from '../../../schemas/common.js';
import type { PaymentInstrument } from '../../../schemas/payment.js';
import type { CheckoutExtensionState } from '../../extensions/extension.js';
import type { HandlerEntry } from '../../payments/choose.js';
import type { PricedLineInput } from '../pricing/quote-request.js';
import type { StorePage } from '../pricing/store-page.js';
import type { CheckoutLineRef } from '../order/checkout-lines.js';
import type { OrderRecipient } from '../order/order-recipient.js';

export type CheckoutBody = Omit<Checkout, 'proto'>;

/** What the platform sent (update replaces all of it); each extension's part is kept unused while it is not active. */
interface CheckoutInputs extends CheckoutExtensionState {
  lines: PricedLineInput[];
  context?: Context;
  buyer?: Buyer;
  signals?: Signals;
  attribution?: Attribution;
  /** Display fields only. */
  instruments: PaymentInstrument[];
}

/** The buyer has to continue on the store's page; lasts until the next update. */
interface Escalation {
  message: Message;
  continueUrl: string;
  /** The page is the store's for confirming a payment (completion/challenge.ts). */
  challenge?: Challenge;
}

/**
 * The store asked the buyer to confirm the payment of a placement (3-D Secure, a bank redirect, a
 * wallet approval): its order comes when the store reports it; it lapses at `until`.
 */
interface Challenge {
  /** The store-side object the order will come from (the payment, the cart), when the store named one. */
  storeReference?: string;
  /** Epoch ms: the buyer did not act by then (the checkout is ready to complete again). */
  until: number;
}

/** While `complete_in_progress`: who claimed the session and how to finish placing its order. */
interface Completion {
  /** Hash of the claiming request's idempotency key and body: only that request may resume it. */
  claim: string;
  /** When the latest attempt to charge and place started (epoch ms), see completion/complete.ts. */
  attemptAt: number;
  handler: Pick<HandlerEntry, 'id' | 'type'>;
  /** Everything `placeOrder` needs but the payment; no credential. */
  placement: Omit<PlaceOrderRequest, 'payment'>;
  /** Who the order is for (the completing platform), so a queue job can record it. */
  recipient: OrderRecipient;
  /** The lines being ordered, so their ids reach the order of a store that keeps only its own. */
  lines?: CheckoutLineRef[];
  /** The store-side object a placement left pending will come from, when the store named one. */
  storeReference?: string;
}

/** What a session has whatever its status. */
export interface SessionFields extends CheckoutInputs {
  id: string;
  /** See cart/ownership.ts. */
  owner: string;
  /** Epoch ms; the session is gone (not_found) from then on. */
  expiresAt: number;
  status: CheckoutStatus;
  /** The totals of the last answer: what the buyer saw. */
  seenTotals: Total[];
  /** Something changed at complete (price, stock); lasts until the next update. Only while open. */
  review?: Message[];
  /** Only while open. */
  escalation?: Escalation;
  /** The store's cart for this session (adapter `Quote.handle`), handed back on every call. */
  handle?: string;
  /** The store's checkout page, while the session is handed to it (see pricing/store-page.ts). */
  storePage?: StorePage;
  /** Claims verified at completion: their discounts are no longer provisional. */
  verifiedClaims?: string[];
  /** Shown once with the next answer, blocking nothing (a completion that was undone). Only while open. */
  notices?: Message[];
}

/** The statuses in which the session still changes with its inputs and the store's prices. */
type OpenStatus = 'incomplete' | 'requires_escalation' | 'ready_for_complete';

export interface OpenCheckout extends SessionFields {
  status: OpenStatus;
}

/**
 * The answer of a session that is being completed, completed or canceled (`view`) no longer
 * changes: it is rendered once, when the session leaves the open statuses.
 */
export interface CompletingCheckout extends SessionFields {
  status: 'complete_in_progress';
  completion: Completion;
  view: CheckoutBody;
}

export interface CompletedCheckout extends SessionFields {
  status: 'completed';
  order: { id: string; permalinkUrl: string };
  /** Absent on a session completed by a backend event (a handed-off checkout): the next read renders it. */
  view?: CheckoutBody;
}

export interface CanceledCheckout extends SessionFields {
  status: 'canceled';
  view: CheckoutBody;
}

/** A checkout session, typed by its status (as carts are `ActiveCart | CanceledCart`). */
export type CheckoutSession = OpenCheckout | CompletingCheckout | CompletedCheckout | CanceledCheckout;

/** A session whose answer is its stored view. */
export type FrozenCheckout = Exclude<CheckoutSession, OpenCheckout> & { view: CheckoutBody };

const OPEN_STATUSES: ReadonlySet<CheckoutStatus> = new Set<OpenStatus>(['incomplete', 'requires_escalation', 'ready_for_complete']);

export const isOpen = (session: CheckoutSession): session is OpenCheckout => OPEN_STATUSES.has(session.status);

export const isFrozen = (session: CheckoutSession): session is FrozenCheckout => !isOpen(session) && session.view !== undefined;

/** What undoing a completion may change besides the status. */
export type ReopenPatch = Partial<Pick<SessionFields, 'escalation' | 'storePage' | 'handle' | 'review' | 'notices'>>;

/** The session being completed open again (its status decided afresh at the next answer), with `patch`. */
export function reopened(session: CompletingCheckout, expiresAt: number, patch: ReopenPatch = {}): OpenCheckout {
  const { completion: _completion, view: _view, ...fields } = session;
  return { ...fields, status: 'incomplete', expiresAt, ...patch };
}

/** The session without a payment challenge it waited for: a complete supersedes it (completion/challenge.ts). */
export const withoutChallenge = (session: OpenCheckout): OpenCheckout =>
  session.escalation?.challenge ? { ...session, escalation: undefined } : session;

/**
 * The store may have settled the session on its own: an order it reported completed it (not
 * rendered yet), or the buyer may have confirmed a payment challenge there (completion/challenge.ts).
 */
export const settledOnStoreMaybe = (session: CheckoutSession): boolean =>
  (session.status === 'completed' && session.view === undefined) || (isOpen(session) && session.escalation?.challenge !== undefined);

/** A payment challenge the buyer did not act on in time: the session is no longer escalated for it. */
export const challengeLapsed = (session: Pick<SessionFields, 'escalation'>, now: number): boolean =>
  session.escalation?.challenge !== undefined && now >= session.escalation.challenge.until;

/** 128 random bits: a checkout id cannot be guessed. */
export const newCheckoutId = () => randomId('chk_');

/** Usable at `now`: not past its expiry. */
export const isLive = (session: CheckoutSession | null, now: number): session is CheckoutSession =>
  session !== null && now < session.expiresAt;

/** Live and the caller's: any other session is `not_found` to it (cart/ownership.ts). */
export const visibleTo = (ctx: OperationContext, session: CheckoutSession | null): session is CheckoutSession =>
  isLive(session, ctx.now()) && ownedByCaller(ctx, session);

/** When a session written now ends (the tenant's checkout TTL, renewed by every change). */
export const expiryFrom = (ctx: Pick<OperationContext, 'now' | 'tenant'>) => ctx.now() + ctx.tenant.policies.checkoutTtlMs;
