/** What complete tells the platform when it does not end in an order (spec part 1 §2.3 severities). */
import type { PlaceOrderResult } from '../../../../adapters/contract.js';
import type { Message, Total } from '../../../../schemas/common.js';
import { errorMessage, warningMessage } from '../../../protocol/messages.js';
import { fromMinorUnits } from '../../../../adapters/kit/money.js';

const TO_CONTINUE = 'review the checkout with the buyer, then update it to continue';

/** The totals differ from those the buyer last saw: which ones, from what to what. */
export function totalsChanged(before: readonly Total[], after: readonly Total[], currency: string): Message {
  const amount = (totals: readonly Total[], type: string) => totals.find((t) => t.type === type)?.amount;
  const show = (value: number | undefined) => (value === undefined ? 'none' : `${fromMinorUnits(value, currency)} ${currency}`);
  const changes = [...new Set([...before, ...after].map((t) => t.type))].flatMap((type) => {
    const was = amount(before, type);
    const now = amount(after, type);
    return was === now ? [] : [`${type} is now ${show(now)} (was ${show(was)})`];
  });
  return errorMessage(
    'price_changed',
    `The totals changed since they were last shown: ${changes.join('; ')}. Nothing was charged; ${TO_CONTINUE}.`,
    'requires_buyer_review',
    '$.totals',
  );
}

export const paymentFailed = (reason: string, index: number): Message =>
  errorMessage(
    'payment_failed',
    `${reason} Nothing was charged; complete again with another payment instrument.`,
    'recoverable',
    `$.payment.instruments[${index}]`,
  );

export const buyerActionRequired = (reason: string): Message =>
  errorMessage(
    'buyer_action_required',
    `${reason} Nothing was charged here; the buyer continues on the store's checkout page (continue_url).`,
    'requires_buyer_input',
  );

/** The store asks the buyer to confirm the payment on its page (completion/challenge.ts). */
export const paymentConfirmationRequired = (reason: string): Message =>
  errorMessage(
    'buyer_action_required',
    `${reason} Nothing is charged until the buyer confirms on the store's page (continue_url); ` +
      'the checkout then completes by itself once the store reports the order.',
    'requires_buyer_input',
  );

export const paymentConfirmationLapsed = (): Message =>
  warningMessage(
    'payment_confirmation_expired',
    "The buyer did not confirm the payment on the store's page in time; nothing was charged. " +
      'Complete again (with another payment instrument if the buyer wishes).',
  );

export const completionInterrupted = (): Message =>
  warningMessage(
    'completion_interrupted',
    'Completing this checkout was interrupted before the payment was taken; nothing was charged. Complete it again.',
  );

const REJECTION_CODES = {
  price_changed: 'price_changed',
  out_of_stock: 'out_of_stock',
  incomplete: 'order_incomplete',
  payment_declined: 'payment_failed',
} as const;

export function orderRejected(rejection: Extract<PlaceOrderResult, { status: 'rejected' }>): Message {
  return errorMessage(
    REJECTION_CODES[rejection.reason],
    `The store did not accept the order (${rejection.detail}); the payment was not taken. ` +
      `${TO_CONTINUE[0]!.toUpperCase()}${TO_CONTINUE.slice(1)}.`,
    'requires_buyer_review',
  );
}
