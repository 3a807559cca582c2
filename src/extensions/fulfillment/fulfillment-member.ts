/**
 * The checkout's `fulfillment` member (spec part 1 §2.8, §4.5): the session's methods with the
 * store's groups and options, and the methods the lines could use. Options come cheapest first;
 * each option's totals are its price, and for the selected one the shipping discounts allocated to
 * its group, so a free-shipping promotion shows where it applies. Shipping discounts are allocated
 * to `$.fulfillment.methods[i].groups[j]`.
 */
import type { AllocationTarget, FulfillmentOptionQuote, PickupLocation, Quote } from '../../../adapters/contract.js';
import type { Total } from '../../../schemas/common.js';
import type {
  Fulfillment,
  FulfillmentMethod,
  FulfillmentOption,
  RetailLocation,
  ShippingDestination,
} from '../../../schemas/fulfillment.js';
import type { AllocationPath } from '../allocation-path.js';
import { fromStoreAddress } from '../../protocol/postal-address.js';
import { groupId } from './ids.js';
import type { StoredMethod } from './method-record.js';

const groupRef = (methodId: string, key: string) => `${methodId}\u0000${key}`;

/** Shipping discount allocated to each group. */
function shippingDiscounts(quote: Quote): Map<string, number> {
  const byGroup = new Map<string, number>();
  for (const { target, amount } of quote.discounts.applied.flatMap((d) => d.allocations)) {
    if (target.kind !== 'shipping') continue;
    const ref = groupRef(target.methodId, target.groupKey);
    byGroup.set(ref, (byGroup.get(ref) ?? 0) + amount);
  }
  return byGroup;
}

function renderOption(option: FulfillmentOptionQuote, discount: number): FulfillmentOption {
  const totals: Total[] = [
    { type: 'subtotal', amount: option.amount },
    ...(discount > 0 ? [{ type: 'discount', amount: -discount }] : []),
    { type: 'total', amount: option.amount - discount },
  ];
  return {
    id: option.id,
    title: option.title,
    ...(option.description && { description: option.description }),
    ...(option.carrier && { carrier: option.carrier }),
    ...(option.earliest && { earliest_fulfillment_time: option.earliest }),
    ...(option.latest && { latest_fulfillment_time: option.latest }),
    totals,
  };
}

function destinations(method: StoredMethod, locations: readonly PickupLocation[]): Array<ShippingDestination | RetailLocation> {
  if (method.type === 'shipping') return method.destinations.map((d) => ({ id: d.id, ...d.address }));
  const listed = method.destinations.length > 0 ? method.destinations.map((d) => d.id) : locations.map((l) => l.id);
  return listed.flatMap((id) => {
    const location = locations.find((l) => l.id === id);
    return location ? [{ id, name: location.name, address: fromStoreAddress(location.address) }] : [];
  });
}

/** Shipping allocations point at the groups they reduce: `$.fulfillment.methods[i].groups[j]`. */
export function fulfillmentAllocationPath(methods: readonly StoredMethod[], quote: Quote): AllocationPath {
  const paths = new Map<string, string>();
  methods.forEach((method, i) => {
    const groups = quote.fulfillment?.find((m) => m.methodId === method.id)?.groups ?? [];
    groups.forEach((group, j) => paths.set(groupRef(method.id, group.key), `$.fulfillment.methods[${i}].groups[${j}]`));
  });
  return (target: AllocationTarget) => (target.kind === 'shipping' ? paths.get(groupRef(target.methodId, target.groupKey)) : undefined);
}

export function renderFulfillment(methods: readonly StoredMethod[], quote: Quote, locations: readonly PickupLocation[]): Fulfillment {
  const discounts = shippingDiscounts(quote);
  const rendered = methods.map((method): FulfillmentMethod => {
    const quoted = quote.fulfillment?.find((m) => m.methodId === method.id);
    const groups = (quoted?.groups ?? []).map((group) => {
      const ref = groupRef(method.id, group.key);
      const options = [...group.options].sort((a, b) => a.amount - b.amount);
      return {
        id: groupId(method.id, group.key),
        line_item_ids: [...group.lineIds],
        options: options.map((o) => renderOption(o, o.id === group.selectedOptionId ? (discounts.get(ref) ?? 0) : 0)),
        selected_option_id: group.selectedOptionId ?? null,
      };
    });
    return {
      id: method.id,
      type: method.type,
      line_item_ids: [...(quoted?.lineIds ?? [])],
      destinations: destinations(method, locations),
      selected_destination_id: method.selectedDestinationId ?? null,
      groups,
    };
  });
  const available = quote.availableMethods.map((m) => ({
    type: m.type,
    line_item_ids: [...m.lineIds],
    fulfillable_on: m.fulfillableOn,
    description: m.description,
  }));
  return { methods: rendered, available_methods: available };
}
