/**
 * What the fulfillment extension still needs before a checkout can be completed, as `missing`
 * messages (recoverable, at the JSONPath to fill in the response) that go away as the platform
 * supplies them: a method for every physical line, a destination per method, an option per group.
 * A group that cannot be served where it is going says why (`fulfillment_unavailable`); an
 * address the store refused is `invalid_address` on the refused member of the destination.
 */
import type { Quote } from '../../../adapters/contract.js';
import type { Message } from '../../../schemas/common.js';
import { errorMessage } from '../../protocol/messages.js';
import { memberOf } from '../../protocol/postal-address.js';
import type { StoredMethod } from './method-record.js';

const missing = (content: string, path: string) => errorMessage('missing', content, 'recoverable', path);

const list = (titles: string[]) => [...new Set(titles)].map((t) => JSON.stringify(t)).join(', ');

export function fulfillmentGaps(methods: readonly StoredMethod[], quote: Quote): Message[] {
  const titles = new Map(quote.lines.map((l) => [l.lineId, l.title]));
  const named = (lineIds: readonly string[]) => list(lineIds.map((id) => titles.get(id) ?? id));
  const gaps: Message[] = [];
  const assigned = new Set((quote.fulfillment ?? []).flatMap((m) => m.lineIds));
  const unassigned = quote.lines.filter((l) => l.requiresShipping && !assigned.has(l.lineId)).map((l) => l.lineId);
  if (unassigned.length > 0) {
    gaps.push(
      missing(
        `Choose how to receive ${named(unassigned)}: add a fulfillment method (see fulfillment.available_methods).`,
        '$.fulfillment.methods',
      ),
    );
  }
  methods.forEach((method, i) => {
    const path = `$.fulfillment.methods[${i}]`;
    const quoted = quote.fulfillment?.find((m) => m.methodId === method.id);
    if (!quoted || quoted.lineIds.length === 0) return;
    if (method.selectedDestinationId === undefined) {
      if (method.type === 'pickup')
        gaps.push(
          missing('Choose the pickup location: one of the destinations as selected_destination_id.', `${path}.selected_destination_id`),
        );
      else if (method.destinations.length === 0) gaps.push(missing('Add the delivery address as a destination.', `${path}.destinations`));
      else
        gaps.push(
          missing('Choose the delivery address: one of the destinations as selected_destination_id.', `${path}.selected_destination_id`),
        );
      return;
    }
    if (quoted.destinationProblems?.length) {
      const at = `${path}.destinations[${method.destinations.findIndex((d) => d.id === method.selectedDestinationId)}]`;
      for (const p of quoted.destinationProblems)
        gaps.push(errorMessage('invalid_address', p.detail, 'recoverable', p.field ? `${at}.${memberOf(p.field)}` : at));
      return;
    }
    quoted.groups.forEach((group, j) => {
      if (group.unavailableReason)
        gaps.push(errorMessage('fulfillment_unavailable', group.unavailableReason, 'recoverable', `${path}.groups[${j}]`));
      else if (group.selectedOptionId === undefined)
        gaps.push(missing(`Choose a delivery option for ${named(group.lineIds)}.`, `${path}.groups[${j}].selected_option_id`));
    });
  });
  if (gaps.length === 0 && quote.totals.tax === null) gaps.push(...regionGaps(methods));
  return gaps;
}

/** Tax unknown although every destination is chosen: a selected delivery address lacks its region. */
function regionGaps(methods: readonly StoredMethod[]): Message[] {
  return methods.flatMap((method, i) => {
    const j = method.destinations.findIndex((d) => d.id === method.selectedDestinationId);
    const address = method.destinations[j]?.address;
    if (method.type !== 'shipping' || !address || address.address_region) return [];
    return [
      missing(
        'Tax depends on the region of the delivery address: add its address_region.',
        `$.fulfillment.methods[${i}].destinations[${j}].address_region`,
      ),
    ];
  });
}
