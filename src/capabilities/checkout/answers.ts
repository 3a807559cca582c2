/**
 * Answers shared by the checkout operations: the same `not_found` for a session that never
 * existed, expired or is another caller's; refused transitions as business outcomes with the
 * session as it is (completed and canceled never change again; while an order is being placed
 * only the request that started it may go on); a checkout body as a failed outcome; and the last
 * step of every open session's answer, `present`: the priced session rendered in the status its
 * pricing decided, and what the session keeps of that answer.
 */
import type { Message } from '../../../schemas/common.js';
import type { OperationContext } from '../context.js';
import { failure, type OperationResult } from '../operation.js';
import { errorMessage } from '../../protocol/messages.js';
import type { PricedCheckout } from './checkout-pricing.js';
import { isFrozen, type CheckoutBody, type CheckoutSession, type OpenCheckout } from './checkout-record.js';
import { renderCheckout, storedView } from './checkout-shape.js';

export function checkoutNotFound(ctx: OperationContext): OperationResult {
  return failure([errorMessage('not_found', 'This checkout does not exist or has expired.', 'unrecoverable')], {
    continue_url: ctx.tenant.adapter.storefrontUrl,
  });
}

/** A checkout that failed as a business outcome: HTTP 200, proto.status error, the checkout with its messages. */
export const failed = (body: CheckoutBody): OperationResult => ({ outcome: 'error', body: { ...body, messages: body.messages ?? [] } });

type ClosedCheckout = Exclude<CheckoutSession, OpenCheckout>;

function refusal(session: ClosedCheckout): Message {
  switch (session.status) {
    case 'completed':
      return errorMessage(
        'checkout_completed',
        `This checkout is completed (order ${session.order.id}); it does not change any more.`,
        'unrecoverable',
      );
    case 'canceled':
      return errorMessage('checkout_canceled', 'This checkout was canceled; it does not change any more.', 'unrecoverable');
    default:
      return errorMessage(
        'checkout_in_progress',
        'The order is being placed: get the checkout until it is completed. ' +
          'Meanwhile only a retry of the same complete request (same idempotency key and body) is accepted.',
        'recoverable',
      );
  }
}

/**
 * An update, cancel or complete the session's status does not allow: the session as it is, or,
 * completed by the store and not rendered yet (the next get renders it), the message alone.
 */
export const refused = (session: ClosedCheckout): OperationResult =>
  isFrozen(session) ? failed({ ...storedView(session), messages: [refusal(session)] }) : failure([refusal(session)]);

/** Totals compare by value: type, amount and label, in order. */
export const sameTotals = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The session with the store's cart and page it was priced with. */
export function withStoreCart<S extends CheckoutSession>(session: S, priced: PricedCheckout): S {
  const { handle: _handle, storePage: _page, ...rest } = session;
  return {
    ...rest,
    ...(priced.handle !== undefined && { handle: priced.handle }),
    ...(priced.storePage && { storePage: priced.storePage }),
  } as S;
}

/**
 * An open session's answer from its fresh price, in the status pricing decided for it
 * (`priced.evaluation`); the session keeps the store's cart and page it was priced with, the totals
 * shown, and its one-time notices are shown now.
 */
export function present(
  ctx: OperationContext,
  session: OpenCheckout,
  priced: PricedCheckout,
  messages: readonly Message[] = [],
): { session: OpenCheckout; body: CheckoutBody } {
  const { evaluation } = priced;
  const { notices = [], ...rest } = withStoreCart(session, priced);
  const decided = { ...rest, status: evaluation.status };
  const shown = [...messages, ...notices, ...evaluation.messages];
  const body = renderCheckout(ctx, decided, priced, { status: evaluation.status, messages: shown });
  return { session: { ...decided, seenTotals: body.totals }, body };
}

/** The answer changed what the session must remember (status, totals shown, store cart or page, notices). */
export const presentedChanges = (before: CheckoutSession, after: CheckoutSession): boolean =>
  after.status !== before.status ||
  !sameTotals(after.seenTotals, before.seenTotals) ||
  after.handle !== before.handle ||
  after.storePage?.key !== before.storePage?.key ||
  before.notices !== undefined;
