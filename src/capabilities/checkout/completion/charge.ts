/**
 * Step 3 of completing a checkout (complete.ts): the charge, by the tenant's finishing mode, or the
 * handoff. gateway_charged: the chosen handler captures, at most once per reference (the checkout
 * id); declined, nothing is taken. store_charged: nothing is taken here; the credential goes to the
 * store with the placement. handoff (or a buyer who must act): the buyer continues on the store's
 * checkout page for this checkout, remembered as a handoff (handoff-record.ts), so the order placed
 * there reaches this platform (webhooks/reconcile.ts).
 *
 * Undo: `releaseCharge`, the capture released (the store refused the order).
 */
import type { OrderPayment } from '../../../../adapters/contract.js';
import type { CheckoutCompleteRequest } from '../../../../schemas/checkout.js';
import type { OperationContext } from '../../context.js';
import { choosePayment, paymentHandler, type PaymentChoice } from '../../../payments/choose.js';
import type { PaymentHandler } from '../../../payments/payment-handler.js';
import { storePage } from '../../pricing/store-page.js';
import type { CompletingCheckout, ReopenPatch } from '../checkout-record.js';
import { saveHandoff } from '../handoff-record.js';
import { buyerActionRequired } from './messages.js';

export type Charge =
  /** Taken, or left to the store: what the placement carries, and the handler that can undo it. */
  | { kind: 'taken'; handler: PaymentHandler; payment: OrderPayment }
  | { kind: 'declined'; reason: string }
  /** The buyer continues on the store's page: what the reopened session shows. */
  | { kind: 'handed_off'; patch: ReopenPatch };

/** The payment handler and instrument `request` pays with, among the tenant's; none: the messages say why. */
export const paymentChoice = (ctx: OperationContext, request: CheckoutCompleteRequest) =>
  choosePayment(
    { handlers: ctx.tenant.config.payment_handlers ?? [], finishing: ctx.tenant.finishing, store: ctx.store, tenantId: ctx.tenant.id },
    request.payment,
  );

export async function charge(ctx: OperationContext, session: CompletingCheckout, choice: PaymentChoice): Promise<Charge> {
  const { handler, instrument } = choice;
  const { placement } = session.completion;
  const charged = await handler.charge({
    reference: session.id,
    amount: placement.expectedTotal,
    currency: session.view.currency,
    instrument,
    signals: session.signals,
  });
  switch (charged.status) {
    case 'captured':
      return { kind: 'taken', handler, payment: { mode: 'gateway_charged', record: charged.payment } };
    case 'store_charges': {
      // A handler that takes a credential is chosen only with an instrument that carries one (payments/choose.ts).
      const credential = instrument?.credential;
      if (!credential) throw new Error(`payment handler ${handler.id} lets the store charge, but no credential was chosen`);
      const payment: OrderPayment = {
        mode: 'store_charged',
        handlerId: handler.id,
        credential: { type: credential.type, token: credential.token },
        ...(placement.billingAddress && { billingAddress: placement.billingAddress }),
      };
      return { kind: 'taken', handler, payment };
    }
    case 'declined':
      return { kind: 'declined', reason: charged.reason };
    case 'requires_buyer':
      return handOff(ctx, session, charged.reason);
  }
}

/** The buyer continues on the store's checkout page for this checkout; the order placed there is reconciled later. */
async function handOff(ctx: OperationContext, session: CompletingCheckout, reason: string): Promise<Charge> {
  const made = await storePage(ctx, session.id, session.completion.placement.quote, session.storePage);
  const { storeReference } = made.page;
  await saveHandoff(ctx, session.id, session.completion.recipient, {
    ...(session.completion.lines && { lines: session.completion.lines }),
    ...(storeReference && { storeReference }),
  });
  const patch: ReopenPatch = {
    escalation: { message: buyerActionRequired(reason), continueUrl: made.page.url },
    storePage: made.page,
    ...(made.handle !== undefined && { handle: made.handle }),
  };
  return { kind: 'handed_off', patch };
}

/** Undo: a capture made for this checkout is released (nothing else was taken). */
export const releaseCharge = (taken: Extract<Charge, { kind: 'taken' }>, session: CompletingCheckout): Promise<void> =>
  taken.handler.release(session.id);

/** What the session's handler captured for it (an attempt interrupted after the charge), ready to place again; null: nothing. */
export async function capturedCharge(
  ctx: Pick<OperationContext, 'store' | 'tenant'>,
  session: CompletingCheckout,
): Promise<Extract<Charge, { kind: 'taken' }> | null> {
  const handler = paymentHandler(session.completion.handler, { store: ctx.store, tenantId: ctx.tenant.id });
  const record = await handler.captured(session.id);
  return record ? { kind: 'taken', handler, payment: { mode: 'gateway_charged', record } } : null;
}
