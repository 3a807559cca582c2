/**
 * The presentment currency is the business's choice (spec part 1 §2.5): the one the buyer's
 * context asks for when the store sells in it, otherwise the store's default. There is no geo-IP
 * here, so without `context.currency` the default applies.
 */
import type { Message } from '../../../schemas/common.js';
import { infoMessage } from '../../protocol/messages.js';

export function chooseCurrency(requested: string | undefined, offered: readonly string[]): { currency: string; notice?: Message } {
  const fallback = offered[0]!;
  if (requested === undefined || offered.includes(requested)) return { currency: requested ?? fallback };
  return {
    currency: fallback,
    notice: infoMessage(
      'currency_not_supported',
      `This store does not sell in ${requested}; prices are in ${fallback}.`,
      '$.context.currency',
    ),
  };
}
