/**
 * Reads `fulfillment.methods` of a create or update (full replacement: methods, destinations and
 * selections not resent are dropped) into the methods the session keeps, with the business's ids.
 * Shipping destinations are normalized addresses; a pickup destination or selection is a store
 * location id, and a location discovered through the catalog is accepted without being listed first
 * (spec part 1 §4.5 item 7). A method with exactly one destination has it selected. What cannot be
 * used is left out with a recoverable message at its request path.
 */
import type { FulfillmentMethodType, PickupLocation } from '../../../adapters/contract.js';
import type { Message } from '../../../schemas/common.js';
import type { FulfillmentRequest, MethodRequest } from '../../../schemas/fulfillment.js';
import { assignIds } from '../../protocol/stable-ids.js';
import type { MessageCode } from '../../protocol/error-catalogue.js';
import { errorMessage } from '../../protocol/messages.js';
import { ADDRESS_MEMBERS, normalizeAddress } from '../../protocol/postal-address.js';
import { destinationId, freshMethodId, groupKeyOf } from './ids.js';
import type { AskedOption, StoredDestination, StoredMethod } from './method-record.js';

export interface ReadFulfillment {
  methods: StoredMethod[];
  asked: AskedOption[];
  messages: Message[];
}

const TYPES: readonly string[] = ['shipping', 'pickup'] satisfies FulfillmentMethodType[];

const problem = (code: MessageCode, content: string, path: string) => errorMessage(code, content, 'recoverable', path);

interface Reading {
  messages: Message[];
  locations: readonly PickupLocation[];
}

function shippingDestinations(
  method: MethodRequest,
  previous: StoredMethod | undefined,
  path: string,
  reading: Reading,
): StoredDestination[] {
  const destinations = new Map<string, StoredDestination>();
  (method.destinations ?? []).forEach((sent, j) => {
    const at = `${path}.destinations[${j}]`;
    const hasAddress = ADDRESS_MEMBERS.some((member) => sent[member] !== undefined);
    const known = previous?.destinations.find((d) => d.id === sent.id);
    if (!hasAddress) {
      if (known) destinations.set(known.id, known);
      else
        reading.messages.push(
          problem('invalid_destination', 'A shipping destination needs an address (or the id of one sent before).', at),
        );
      return;
    }
    const { address, badCountry } = normalizeAddress(sent);
    if (badCountry) {
      reading.messages.push(
        problem(
          'invalid_address',
          `${JSON.stringify(sent.address_country)} is not a country: send an ISO 3166-1 alpha-2 code such as "US".`,
          `${at}.address_country`,
        ),
      );
      return;
    }
    const id = known ? known.id : destinationId(address);
    destinations.set(id, { id, address });
  });
  return [...destinations.values()];
}

function pickupDestinations(method: MethodRequest, path: string, reading: Reading): StoredDestination[] {
  const known = new Set(reading.locations.map((l) => l.id));
  const destinations = new Map<string, StoredDestination>();
  (method.destinations ?? []).forEach((sent, j) => {
    if (sent.id !== undefined && known.has(sent.id)) destinations.set(sent.id, { id: sent.id });
    else
      reading.messages.push(
        problem(
          'invalid_destination',
          `A pickup destination is one of this store's locations: ${[...known].join(', ') || 'none'}.`,
          `${path}.destinations[${j}].id`,
        ),
      );
  });
  return [...destinations.values()];
}

function selectedDestination(
  method: MethodRequest,
  type: FulfillmentMethodType,
  destinations: StoredDestination[],
  path: string,
  reading: Reading,
): string | undefined {
  const sent = method.selected_destination_id ?? undefined;
  if (sent === undefined) {
    if (destinations.length === 1) return destinations[0]!.id;
    return type === 'pickup' && destinations.length === 0 && reading.locations.length === 1 ? reading.locations[0]!.id : undefined;
  }
  if (destinations.some((d) => d.id === sent)) return sent;
  if (type === 'pickup' && reading.locations.some((l) => l.id === sent)) {
    // A location discovered in the catalog: accepted, and listed if the platform listed others.
    if (destinations.length > 0) destinations.push({ id: sent });
    return sent;
  }
  reading.messages.push(
    problem('invalid_destination', `${JSON.stringify(sent)} is not one of this method's destinations.`, `${path}.selected_destination_id`),
  );
  return undefined;
}

/** Options per group named by its id; options sent without a group id of this method are asked for loosely. */
function selections(method: MethodRequest, methodId: string, path: string, asked: AskedOption[]): Record<string, string> {
  const chosen: Record<string, string> = {};
  (method.groups ?? []).forEach((group, k) => {
    const optionId = group.selected_option_id ?? undefined;
    if (optionId === undefined) return;
    const key = group.id === undefined ? undefined : groupKeyOf(methodId, group.id);
    if (key !== undefined) chosen[key] = optionId;
    asked.push({ methodId, ...(key !== undefined && { key }), optionId, path: `${path}.groups[${k}].selected_option_id` });
  });
  return chosen;
}

export async function readFulfillmentRequest(
  request: FulfillmentRequest | undefined,
  stored: readonly StoredMethod[],
  pickupLocations: () => Promise<PickupLocation[]>,
): Promise<ReadFulfillment> {
  const sent = (request?.methods ?? []).map((method, i) => ({ method, path: `$.fulfillment.methods[${i}]` }));
  const messages: Message[] = [];
  const usable = sent.filter(({ method, path }) => {
    if (TYPES.includes(method.type)) return true;
    messages.push(
      problem(
        'unsupported_fulfillment_method',
        `This store fulfills by ${TYPES.join(' or ')}, not ${JSON.stringify(method.type)}.`,
        `${path}.type`,
      ),
    );
    return false;
  });
  const reading: Reading = { messages, locations: usable.some(({ method }) => method.type === 'pickup') ? await pickupLocations() : [] };
  const ids = assignIds(
    usable.map(({ method }) => ({ id: method.id, key: method.type })),
    stored.map((m) => ({ id: m.id, key: m.type })),
    freshMethodId,
  );
  const asked: AskedOption[] = [];
  const methods = usable.map(({ method, path }, i): StoredMethod => {
    const id = ids[i]!;
    const type = method.type as FulfillmentMethodType;
    const previous = stored.find((m) => m.id === id && m.type === type);
    const destinations =
      type === 'shipping' ? shippingDestinations(method, previous, path, reading) : pickupDestinations(method, path, reading);
    const selected = selectedDestination(method, type, destinations, path, reading);
    return {
      id,
      type,
      ...(method.line_item_ids && { lineIds: [...method.line_item_ids] }),
      destinations,
      ...(selected !== undefined && { selectedDestinationId: selected }),
      selections: selections(method, id, path, asked),
    };
  });
  return { methods, asked, messages };
}
