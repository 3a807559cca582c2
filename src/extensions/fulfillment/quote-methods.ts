/**
 * The session's methods as the adapter's `FulfillmentMethodRequest`s, and what the quote made of
 * the options the platform asked for: an option sent without a group of its method (e.g. one
 * discovered in the catalog) is applied to the groups that offer it (best effort, spec part 1 §4.5
 * item 7); an option no group took is a recoverable message at the path it was sent at.
 */
import type { FulfillmentMethodRequest, Quote } from '../../../adapters/contract.js';
import type { Message } from '../../../schemas/common.js';
import { errorMessage } from '../../protocol/messages.js';
import { toStoreAddress } from '../../protocol/postal-address.js';
import type { AskedOption, StoredMethod } from './method-record.js';

function destinationOf(method: StoredMethod): FulfillmentMethodRequest['destination'] {
  const id = method.selectedDestinationId;
  if (id === undefined) return undefined;
  if (method.type === 'pickup') return { locationId: id };
  const address = method.destinations.find((d) => d.id === id)?.address;
  return address && { address: toStoreAddress(address) };
}

/** `lineIds`: every line of the session; a method without its own list takes those no other method names. */
export function methodRequests(methods: readonly StoredMethod[], lineIds: readonly string[]): FulfillmentMethodRequest[] {
  const named = new Set(methods.flatMap((m) => m.lineIds ?? []));
  const unnamed = lineIds.filter((id) => !named.has(id));
  return methods.map((method) => {
    const destination = destinationOf(method);
    return {
      methodId: method.id,
      type: method.type,
      lineIds: method.lineIds ?? unnamed,
      ...(destination && { destination }),
      ...(Object.keys(method.selections).length > 0 && { selectedOptions: { ...method.selections } }),
    };
  });
}

/** The methods with loosely asked options set on the groups of `quote` that offer them; null when none applies. */
export function applyLooseOptions(methods: readonly StoredMethod[], asked: readonly AskedOption[], quote: Quote): StoredMethod[] | null {
  let changed = false;
  const updated = methods.map((method) => {
    const loose = asked.filter((a) => a.methodId === method.id && a.key === undefined);
    const groups = quote.fulfillment?.find((m) => m.methodId === method.id)?.groups ?? [];
    const selections = { ...method.selections };
    for (const group of groups) {
      if (selections[group.key] !== undefined) continue;
      const option = loose.find((a) => group.options.some((o) => o.id === a.optionId));
      if (!option) continue;
      selections[group.key] = option.optionId;
      changed = true;
    }
    return { ...method, selections };
  });
  return changed ? updated : null;
}

/** Options asked for that no group of the quote took. */
export function untakenOptions(asked: readonly AskedOption[], quote: Quote): Message[] {
  return asked.flatMap((a) => {
    const groups = quote.fulfillment?.find((m) => m.methodId === a.methodId)?.groups ?? [];
    const candidates = a.key === undefined ? groups : groups.filter((g) => g.key === a.key);
    if (candidates.some((g) => g.selectedOptionId === a.optionId)) return [];
    const why =
      a.key !== undefined && candidates.length === 0
        ? 'that group no longer exists (the lines or the split changed)'
        : 'no group offers it';
    return [
      errorMessage(
        'invalid_option',
        `Option ${JSON.stringify(a.optionId)} was not selected: ${why}; choose one of the group's options.`,
        'recoverable',
        a.path,
      ),
    ];
  });
}
