/**
 * Local pickup from the Storefront API: the shop's pickup locations (`locations`, which lists the
 * locations offering local pickup), and per cart line where it can be collected
 * (`ProductVariant.storeAvailability`: `available`, `quantityAvailable`, `pickUpTime`, `location`;
 * https://shopify.dev/docs/storefronts/headless/building-with-the-storefront-api/products-collections/local-pickup).
 * The Cart API does not price pickup (a buyer's pickup choice is a checkout preference:
 * `buyerIdentity.preferences.delivery{deliveryMethod: [PICK_UP], pickupHandle}`, which prefills
 * Shopify's checkout), and Shopify's local pickup carries no fee, so a pickup option is free and
 * its id is the location's gid (what `pickupHandle` takes).
 */
import type { AvailableMethod, FulfillmentGroupQuote, FulfillmentMethodRequest, PickupLocation, QuotedLine } from '../contract.js';
import { fromShopifyAddress } from './addresses.js';

type AddressField = 'address1' | 'address2' | 'city' | 'provinceCode' | 'countryCode' | 'zip' | 'phone';

export interface SfLocation {
  id: string;
  name: string;
  address: Partial<Record<AddressField, string | null>>;
}

export interface SfStoreAvailability {
  available: boolean;
  quantityAvailable: number;
  pickUpTime: string;
  location: SfLocation;
}

/** A location without `readyWithinHours`: Shopify says it per variant only, as text (`pickUpTime`). */
export function toPickupLocation(l: SfLocation): PickupLocation {
  return { id: l.id, name: l.name, address: fromShopifyAddress(l.address) };
}

/** A cart line's quantity and where it can be collected. */
export interface PickupLine {
  lineId: string;
  title: string;
  quantity: number;
  availability: SfStoreAvailability[];
}

/**
 * Whether `quantity` can be collected there: in stock at the location, and enough of it when
 * Shopify counts it (an untracked variant is available with a quantity of 0).
 */
function collectable(a: SfStoreAvailability | undefined, quantity: number): boolean {
  return !!a?.available && (a.quantityAvailable <= 0 || a.quantityAvailable >= quantity);
}

const list = (names: string[]) => (names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : (names[0] ?? ''));

/** The pickup method the lines could use: those collectable somewhere; undefined when none is. */
export function pickupAvailable(lines: PickupLine[], quoted: QuotedLine[]): AvailableMethod | undefined {
  const pickable = lines.filter((l) => l.availability.some((a) => collectable(a, l.quantity)));
  if (pickable.length === 0) return undefined;
  const names = new Map(
    pickable.flatMap((l) => l.availability.filter((a) => collectable(a, l.quantity)).map((a) => [a.location.id, a.location.name])),
  );
  const backorder = quoted.some((q) => pickable.some((l) => l.lineId === q.lineId) && q.fulfillableOn === null);
  return {
    type: 'pickup',
    lineIds: pickable.map((l) => l.lineId),
    fulfillableOn: backorder ? null : 'now',
    description: `Free pickup at ${list([...names.values()])}.`,
  };
}

/** The one pickup group of a method: the chosen location's free option, or why there is none. */
export function pickupGroup(
  method: FulfillmentMethodRequest,
  lines: PickupLine[],
): { group: FulfillmentGroupQuote; location?: SfLocation } {
  const group: FulfillmentGroupQuote = { key: 'pickup', lineIds: lines.map((l) => l.lineId), options: [] };
  const unavailable = (unavailableReason: string) => ({ group: { ...group, unavailableReason } });
  const destination = method.destination;
  if (!destination) return { group };
  if (!('locationId' in destination)) return unavailable('Pickup needs one of the store\u2019s pickup locations, not an address.');
  const at = lines.map((l) => ({ line: l, here: l.availability.find((a) => a.location.id === destination.locationId) }));
  const location = at.find((a) => a.here)?.here;
  if (!location) return unavailable('This location does not offer pickup for these items.');
  const missing = at.filter((a) => !collectable(a.here, a.line.quantity)).map((a) => a.line.title);
  if (missing.length) return unavailable(`${[...new Set(missing)].join(', ')} not in stock at ${location.location.name}.`);
  const option = {
    id: location.location.id,
    title: `Pick up at ${location.location.name}`,
    ...(location.pickUpTime && { description: location.pickUpTime }),
    amount: 0,
  };
  const selected = method.selectedOptions?.[group.key] === option.id;
  return { group: { ...group, options: [option], ...(selected && { selectedOptionId: option.id }) }, location: location.location };
}
