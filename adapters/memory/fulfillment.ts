/**
 * Fulfillment of a checkout quote: which lines go in which group, the options of each group for
 * its destination, and the methods the lines could use at all.
 *
 * Groups: shipping splits by origin when the platform accepts several groups (each origin ships
 * its own parcel, priced on its own), else one group `all`; pickup is one group `all`. Keys are
 * origin ids or `all`, so a group keeps its identity across updates.
 */
import type {
  AvailableMethod,
  FulfillmentGroupQuote,
  FulfillmentMethodQuote,
  FulfillmentMethodRequest,
  FulfillmentOptionQuote,
  PostalAddress,
  QuoteRequest,
} from '../contract.js';
import type { PricedLine } from './lines.js';
import type { Location, StoreData } from './model.js';
import { dateMs, originsNotServing, pickupOption, serviceLevelOf, shippingOptions } from './options.js';

/** A group as the rest of the quote needs it (discounts, tax). */
export interface GroupState {
  methodId: string;
  key: string;
  type: FulfillmentMethodRequest['type'];
  lines: PricedLine[];
  selected?: { option: FulfillmentOptionQuote; serviceLevel?: string };
  /** Where its lines are taxed: the shipping address or the pickup location. */
  taxAddress?: Pick<PostalAddress, 'country' | 'region'>;
}

export interface FulfillmentResult {
  methods: FulfillmentMethodQuote[];
  groups: GroupState[];
}

/** Latest preorder release among the lines, in ms. */
function releaseOf(lines: PricedLine[]): number | undefined {
  const dates = lines.flatMap((l) => (l.source.preorderOn ? [dateMs(l.source.preorderOn)] : []));
  return dates.length ? Math.max(...dates) : undefined;
}

function splitShipping(data: StoreData, lines: PricedLine[], multiGroup: boolean): Array<{ key: string; lines: PricedLine[] }> {
  if (!multiGroup) return lines.length ? [{ key: 'all', lines }] : [];
  return [...data.origins.keys()].flatMap((origin) => {
    const own = lines.filter((l) => l.source.originId === origin);
    return own.length ? [{ key: origin, lines: own }] : [];
  });
}

type Options = Pick<FulfillmentGroupQuote, 'options' | 'unavailableReason'> & { taxAddress?: GroupState['taxAddress'] };

function shippingGroupOptions(data: StoreData, method: FulfillmentMethodRequest, lines: PricedLine[], now: number): Options {
  const destination = method.destination;
  if (!destination) return { options: [] };
  if (!('address' in destination)) return { options: [], unavailableReason: 'Shipping needs a delivery address, not a pickup location.' };
  const { country, region } = destination.address;
  if (!country) return { options: [], unavailableReason: 'The delivery address needs a country.' };
  const taxAddress = { country, ...(region && { region }) };
  const origins = [...new Set(lines.map((l) => l.source.originId!))].map((id) => data.origins.get(id)!);
  const blocked = originsNotServing(origins, country);
  if (blocked.length) {
    const names = lines.filter((l) => blocked.some((o) => o.id === l.source.originId)).map((l) => l.quoted.title);
    return { options: [], unavailableReason: `${[...new Set(names)].join(', ')} cannot be shipped to ${country}.`, taxAddress };
  }
  return { options: shippingOptions(data, origins, country, now, releaseOf(lines)), taxAddress };
}

/** Units of each line the location can hand over (untracked stock is everywhere). */
function missingAt(location: Location, lines: PricedLine[]): string[] {
  const used = new Map<string, number>();
  return lines.flatMap((l) => {
    if (l.source.stock === null) return [];
    const id = l.source.variant.id;
    const need = (used.get(id) ?? 0) + l.quoted.quantity;
    used.set(id, need);
    return (location.stock.get(id) ?? 0) >= need ? [] : [l.quoted.title];
  });
}

function pickupGroupOptions(data: StoreData, method: FulfillmentMethodRequest, lines: PricedLine[], now: number): Options {
  const destination = method.destination;
  if (!destination) return { options: [] };
  if (!('locationId' in destination))
    return { options: [], unavailableReason: 'Pickup needs one of our pickup locations, not an address.' };
  const location = data.locations.find((l) => l.location.id === destination.locationId);
  if (!location) return { options: [], unavailableReason: `"${destination.locationId}" is not one of our pickup locations.` };
  const { country, region } = location.location.address;
  const taxAddress = { country: country!, ...(region && { region }) };
  const missing = missingAt(location, lines);
  if (missing.length)
    return { options: [], unavailableReason: `${[...new Set(missing)].join(', ')} not in stock at ${location.location.name}.`, taxAddress };
  return { options: [pickupOption(location, now, releaseOf(lines))], taxAddress };
}

export function quoteFulfillment(
  data: StoreData,
  request: NonNullable<QuoteRequest['fulfillment']>,
  priced: PricedLine[],
  now: number,
): FulfillmentResult {
  const byId = new Map(priced.filter((l) => l.quoted.requiresShipping).map((l) => [l.quoted.lineId, l]));
  const assigned = new Set<string>();
  const methods: FulfillmentMethodQuote[] = [];
  const groups: GroupState[] = [];
  for (const method of request.methods) {
    const lines = method.lineIds.flatMap((id) => {
      const line = byId.get(id);
      if (!line || assigned.has(id)) return [];
      assigned.add(id);
      return [line];
    });
    const split = method.type === 'shipping' ? splitShipping(data, lines, request.multiGroup) : lines.length ? [{ key: 'all', lines }] : [];
    const quotes = split.map(({ key, lines: groupLines }) => {
      const { options, unavailableReason, taxAddress } =
        method.type === 'shipping'
          ? shippingGroupOptions(data, method, groupLines, now)
          : pickupGroupOptions(data, method, groupLines, now);
      const wanted = method.selectedOptions?.[key];
      const option = options.find((o) => o.id === wanted);
      const serviceLevel = option && serviceLevelOf(data, option.id);
      groups.push({
        methodId: method.methodId,
        key,
        type: method.type,
        lines: groupLines,
        ...(option && { selected: { option, ...(serviceLevel && { serviceLevel }) } }),
        ...(taxAddress && { taxAddress }),
      });
      return {
        key,
        lineIds: groupLines.map((l) => l.quoted.lineId),
        options,
        ...(unavailableReason && { unavailableReason }),
        ...(option && { selectedOptionId: option.id }),
      };
    });
    methods.push({ methodId: method.methodId, type: method.type, lineIds: lines.map((l) => l.quoted.lineId), groups: quotes });
  }
  return { methods, groups };
}

/** The location can hand over the line's units (untracked stock is everywhere). */
const canHandOver = (location: Location, line: PricedLine) =>
  line.source.stock === null || (location.stock.get(line.source.variant.id) ?? 0) >= line.quoted.quantity;

/** Lines by the day they can be fulfilled, in order of first appearance (a quote has a few lines and fewer dates). */
function byDate(lines: readonly PricedLine[]): PricedLine[][] {
  const groups: PricedLine[][] = [];
  for (const line of lines) {
    const same = groups.find((group) => group[0]!.quoted.fulfillableOn === line.quoted.fulfillableOn);
    if (same) same.push(line);
    else groups.push([line]);
  }
  return groups;
}

const list = (names: readonly string[]) => (names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : (names[0] ?? ''));

/** Once each, in order. */
const distinct = (names: readonly string[]) => names.filter((name, i) => names.indexOf(name) === i);

export function availableMethods(data: StoreData, priced: PricedLine[]): AvailableMethod[] {
  const physical = priced.filter((l) => l.quoted.requiresShipping);
  const method = (type: AvailableMethod['type'], lines: readonly PricedLine[], description: string): AvailableMethod => ({
    type,
    lineIds: lines.map((l) => l.quoted.lineId),
    fulfillableOn: lines[0]!.quoted.fulfillableOn,
    description,
  });
  const methods = byDate(physical).map((lines) =>
    method('shipping', lines, `Ships from ${list(distinct(lines.map((l) => data.origins.get(l.source.originId!)!.name)))}.`),
  );
  const pickable = physical.filter((l) => data.locations.some((location) => canHandOver(location, l)));
  for (const lines of byDate(pickable)) {
    const at = data.locations.filter((location) => lines.some((l) => canHandOver(location, l)));
    methods.push(method('pickup', lines, `Free pickup at ${list(at.map((l) => l.location.name))}.`));
  }
  return methods;
}
