/**
 * Why a line cannot be bought as requested, as recoverable error messages pointing at the line
 * (spec part 1 §2.3, §7): `not_found`, `invalid_quantity`, `out_of_stock`. The rest of the cart
 * or checkout stays usable. Lines the store could not price are not kept; a line with more than
 * the store can sell is kept at the requested quantity and flagged.
 *
 * Paths point at the line in the list that was priced: the request's `line_items` on create and
 * update (like validation errors, they are about what was sent), the stored lines on a read.
 */
import type { LineProblem, Quote } from '../../../adapters/contract.js';
import type { Message } from '../../../schemas/common.js';
import type { MessageCode } from '../../protocol/error-catalogue.js';
import { errorMessage } from '../../protocol/messages.js';

type Severity = 'recoverable' | 'unrecoverable';

/** Where a line was in the request (its JSONPath) and which item it asked for. */
export interface LineRef {
  path: string;
  itemId: string;
}

/** Problems that mean the item cannot be bought at all now. */
export const isStockProblem = (problem: LineProblem) => problem.code === 'out_of_stock' || problem.code === 'discontinued';

function describe(problem: LineProblem, item: string): { code: MessageCode; content: string; field: string } {
  switch (problem.code) {
    case 'not_found':
      return { code: 'not_found', content: `${item} does not exist in this store.`, field: '' };
    case 'invalid_quantity':
      return { code: 'invalid_quantity', content: `${item} needs a quantity of at least 1.`, field: '.quantity' };
    case 'out_of_stock':
      return { code: 'out_of_stock', content: `${item} is out of stock.`, field: '' };
    case 'discontinued':
      return { code: 'out_of_stock', content: `${item} is no longer sold.`, field: '' };
    case 'insufficient_stock':
      return {
        code: 'out_of_stock',
        content:
          problem.available > 0
            ? `Only ${problem.available} of ${item} can be bought now; lower the quantity before checkout.`
            : `None of ${item} is left for this line (earlier lines take the stock); remove it or lower another line's quantity.`,
        field: '.quantity',
      };
  }
}

export function lineProblemMessages(quote: Quote, refs: ReadonlyMap<string, LineRef>, severity: Severity = 'recoverable'): Message[] {
  const titles = new Map(quote.lines.map((line) => [line.lineId, line.title]));
  return quote.lineProblems.flatMap((problem) => {
    const ref = refs.get(problem.lineId);
    if (!ref) return [];
    const title = titles.get(problem.lineId);
    const { code, content, field } = describe(problem, title ? JSON.stringify(title) : `Item ${JSON.stringify(ref.itemId)}`);
    // The store's own words, when it gave a reason (a refused line of a partial quote).
    const detail = problem.detail ? ` The store says: ${JSON.stringify(problem.detail)}.` : '';
    return [errorMessage(code, content + detail, severity, `${ref.path}${field}`)];
  });
}

/** Refs of lines by their position in the list that was priced: `$.line_items[i]`. */
export function lineRefs(lines: ReadonlyArray<{ id: string; itemId: string }>): Map<string, LineRef> {
  return new Map(lines.map((line, i) => [line.id, { path: `$.line_items[${i}]`, itemId: line.itemId }]));
}
