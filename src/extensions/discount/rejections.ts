/**
 * Codes the store refused, as `warning` messages (so platforms surface them to the buyer) with
 * the path of the code entry and the protocol's rejection codes (spec part 1 §4.4, §7).
 * `not_applicable` (a valid code nothing in the cart qualifies for) has no protocol code; it
 * gets `discount_code_not_applicable`, with the store's reason in the text. A store that gives no
 * reason (`capabilities.rejectionReasons` false, or none for this code) gets `discount_code_invalid`
 * with a sentence that claims nothing more: the gateway never invents the store's reason.
 */
import type { DiscountRejection, Quote } from '../../../adapters/contract.js';
import type { Message } from '../../../schemas/common.js';
import type { MessageCode } from '../../protocol/error-catalogue.js';
import { warningMessage } from '../../protocol/messages.js';

interface Rejection {
  code: MessageCode;
  says: string;
}

const REJECTIONS: Record<DiscountRejection, Rejection> = {
  expired: { code: 'discount_code_expired', says: 'has expired' },
  invalid: { code: 'discount_code_invalid', says: 'is not a valid discount code' },
  already_applied: { code: 'discount_code_already_applied', says: 'is already applied' },
  combination_disallowed: { code: 'discount_code_combination_disallowed', says: 'cannot be combined with another active discount' },
  user_not_logged_in: { code: 'discount_code_user_not_logged_in', says: 'needs a signed-in buyer' },
  user_ineligible: { code: 'discount_code_user_ineligible', says: 'is not available to this buyer' },
  not_applicable: { code: 'discount_code_not_applicable', says: 'does not apply to this cart' },
};

const UNEXPLAINED: Rejection = { code: 'discount_code_invalid', says: 'was not accepted by the store' };

/** `reasons`: the adapter declares `rejectionReasons`; otherwise any reason it sent is not relied on. */
export function rejectionMessages(rejected: Quote['discounts']['rejected'], reasons = true): Message[] {
  return rejected.map(({ code, index, reason, detail }) => {
    const { code: messageCode, says } = reasons && reason ? REJECTIONS[reason] : UNEXPLAINED;
    return warningMessage(messageCode, `Code ${JSON.stringify(code)} ${says}.${detail ? ` ${detail}` : ''}`, `$.discounts.codes[${index}]`);
  });
}
