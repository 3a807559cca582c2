/**
 * The checkout status machine's one decision (spec part 1 §3), pure: given the session and the
 * store's latest quote, is it `ready_for_complete`, still `incomplete`, or `requires_escalation`,
 * and which messages say why. What the platform can still supply (buyer fields, a destination, an
 * option) is a `missing` message (recoverable, with the JSONPath to fill in) that keeps it
 * `incomplete`; it goes away once supplied.
 *
 * ready_for_complete: at least one line, every line buyable as requested, the required buyer
 * fields, for every physical line a method with a destination and an option per group (fulfillment
 * extension), tax known, no pending review. A message that needs the buyer (`requires_buyer_input`,
 * `requires_buyer_review`: a pending review or escalation, physical lines for a platform without
 * the fulfillment extension, which cannot choose a delivery) makes it `requires_escalation`: the
 * buyer finishes on the store's page (`continue_url`) or the platform updates the checkout.
 *
 * The other statuses (complete_in_progress, completed, canceled) are set by complete and cancel.
 */
import type { Quote } from '../../../adapters/contract.js';
import type { Message } from '../../../schemas/common.js';
import type { BuyerField } from '../../config/tenant-schema.js';
import type { CheckoutExtensionState } from '../../extensions/extension.js';
import { completionRules, type CompletionRules } from '../../extensions/steps.js';
import type { OperationContext } from '../context.js';
import { errorMessage } from '../../protocol/messages.js';
import type { CheckoutSession } from './checkout-record.js';

type OpenStatus = 'incomplete' | 'requires_escalation' | 'ready_for_complete';

export interface StatusRules {
  requiredBuyerFields: readonly BuyerField[];
  /** What the extensions active for the caller still need, and whether one lets the platform choose delivery. */
  extensions: CompletionRules;
}

export interface Evaluation {
  status: OpenStatus;
  messages: Message[];
}

const BUYER_FIELD_NAMES: Record<BuyerField, string> = {
  email: 'email address',
  first_name: 'first name',
  last_name: 'last name',
  phone_number: 'phone number',
};

export const statusRules = (ctx: Pick<OperationContext, 'tenant' | 'caller'>): StatusRules => ({
  requiredBuyerFields: ctx.tenant.policies.requiredBuyerFields,
  extensions: completionRules(ctx),
});

export function evaluate(
  session: CheckoutExtensionState & Pick<CheckoutSession, 'buyer' | 'review' | 'escalation'>,
  quote: Quote,
  rules: StatusRules,
): Evaluation {
  const messages: Message[] = [];
  if (quote.lines.length === 0)
    messages.push(errorMessage('missing', 'Add at least one item that can be bought.', 'recoverable', '$.line_items'));
  for (const field of rules.requiredBuyerFields) {
    if (session.buyer?.[field]) continue;
    messages.push(errorMessage('missing', `The store needs the buyer's ${BUYER_FIELD_NAMES[field]}.`, 'recoverable', `$.buyer.${field}`));
  }
  const ships = quote.lines.some((line) => line.requiresShipping);
  const handOff = ships && !rules.extensions.delivers;
  messages.push(...rules.extensions.gaps(session, quote));
  if (!handOff && messages.length === 0 && quote.lines.length > 0 && quote.totals.tax === null) {
    messages.push(
      errorMessage(
        'missing',
        "Tax needs the buyer's country and region: send context.address_country and context.address_region.",
        'recoverable',
        '$.context.address_country',
      ),
    );
  }
  messages.push(...(session.review ?? []));
  if (session.escalation) messages.push(session.escalation.message);
  if (handOff) {
    const content =
      'These items need a delivery choice, which this platform cannot make without dev.proto.shopping.fulfillment: ' +
      "continue on the store's checkout page (continue_url).";
    messages.push(errorMessage('fulfillment_unsupported', content, 'requires_buyer_input'));
  }
  if (messages.some(needsBuyer)) return { status: 'requires_escalation', messages };
  const blocked = messages.length > 0 || quote.lineProblems.length > 0;
  return { status: blocked ? 'incomplete' : 'ready_for_complete', messages };
}

/** Severities that hand the checkout to the buyer (upstream: they contribute to requires_escalation). */
const needsBuyer = (message: Message) => message.severity === 'requires_buyer_input' || message.severity === 'requires_buyer_review';
