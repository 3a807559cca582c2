/**
 * Catalog fulfillment discovery: per variant, can shipping reach the destination's area and can
 * pickup hand it over at the named (or nearest fitting) location, with representative options.
 */
import type { FulfillmentDiscoveryQuery, FulfillmentOptionQuote, VariantFulfillment } from '../contract.js';
import type { Location, StoreData, StoreVariant } from './model.js';
import { dateMs, originsNotServing, pickupOption, shippingOptions } from './options.js';

type Area = { country?: string; region?: string } | undefined;
type MethodAnswer = VariantFulfillment['methods'][number];

const release = (s: StoreVariant) => (s.preorderOn ? dateMs(s.preorderOn) : undefined);
const hasStockAt = (l: Location, s: StoreVariant) => s.stock === null || (l.stock.get(s.variant.id) ?? 0) > 0;

/** The cheapest and the fastest option (one when they coincide). */
function representative(options: FulfillmentOptionQuote[]): MethodAnswer['options'] {
  if (options.length === 0) return [];
  const fastest = options.reduce((a, b) => ((b.latest ?? '') < (a.latest ?? '') ? b : a));
  return [...new Set([options[0]!, fastest])].map(({ id, title, description, amount, earliest, latest }) => ({
    id,
    title,
    ...(description && { description }),
    amount,
    ...(earliest && { earliest }),
    ...(latest && { latest }),
  }));
}

function shippingAnswer(data: StoreData, source: StoreVariant, area: Area, now: number): MethodAnswer {
  const origin = data.origins.get(source.originId!)!;
  const { available, status } = source.variant.availability;
  const country = area?.country?.toUpperCase();
  if (!country) return { type: 'shipping', available, status, description: `Ships from ${origin.name}.`, options: [] };
  if (originsNotServing([origin], country).length) {
    return { type: 'shipping', available: false, status, description: `${origin.name} does not ship to ${country}.`, options: [] };
  }
  return {
    type: 'shipping',
    available,
    status,
    description: `Ships from ${origin.name} to ${country}.`,
    options: available ? representative(shippingOptions(data, [origin], country, now, release(source))) : [],
  };
}

/** The location the answer is about: in the area (same region first), stocked first. */
function bestLocation(data: StoreData, source: StoreVariant, area: Area): Location | undefined {
  const country = area?.country?.toUpperCase();
  const region = area?.region?.toUpperCase();
  const inArea = data.locations.filter((l) => !country || l.location.address.country === country);
  const ranked = [...inArea].sort(
    (a, b) =>
      Number(hasStockAt(b, source)) - Number(hasStockAt(a, source)) ||
      Number(b.location.address.region === region) - Number(a.location.address.region === region),
  );
  return ranked[0];
}

function pickupAnswer(location: Location, source: StoreVariant, now: number): MethodAnswer {
  const { status: variantStatus } = source.variant.availability;
  const inStock = hasStockAt(location, source);
  const available = inStock && variantStatus !== 'discontinued';
  const status = variantStatus === 'discontinued' || variantStatus === 'preorder' ? variantStatus : inStock ? 'in_stock' : 'out_of_stock';
  const name = location.location.name;
  return {
    type: 'pickup',
    available,
    status,
    locationId: location.location.id,
    description: available ? `Free pickup at ${name}.` : `Not in stock at ${name}.`,
    options: available ? representative([pickupOption(location, now, release(source))]) : [],
  };
}

export function discoverFulfillment(data: StoreData, query: FulfillmentDiscoveryQuery, now: number): VariantFulfillment[] {
  const wants = (type: MethodAnswer['type']) => !query.methods || query.methods.includes(type);
  const named = query.destination.locationId ? data.locations.find((l) => l.location.id === query.destination.locationId) : undefined;
  const area: Area = query.destination.address ?? named?.location.address;
  return query.variantIds.flatMap((variantId) => {
    const source = data.variants.get(variantId);
    if (!source) return [];
    if (!source.variant.requiresShipping) return [{ variantId, methods: [] }];
    const methods: MethodAnswer[] = [];
    if (wants('shipping')) methods.push(shippingAnswer(data, source, area, now));
    const location = query.destination.locationId ? named : bestLocation(data, source, area);
    if (wants('pickup') && location) methods.push(pickupAnswer(location, source, now));
    return [{ variantId, methods }];
  });
}
