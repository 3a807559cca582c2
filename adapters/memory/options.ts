/**
 * The store's fulfillment options: shipping rates for a country from the lines' origins, and
 * free pickup at a location. Shared by checkout quotes and catalog discovery so that an option id
 * discovered in the catalog is the same id at checkout.
 */
import type { FulfillmentOptionQuote } from '../contract.js';
import type { Location, Origin, Rate, StoreData } from './model.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** A country's own rates, plus the `default` rates of service levels it has none of. */
function ratesFor(data: StoreData, country: string): Rate[] {
  const own = data.rates.filter((r) => r.country === country);
  const levels = new Set(own.map((r) => r.serviceLevel));
  return [...own, ...data.rates.filter((r) => r.country === 'default' && !levels.has(r.serviceLevel))];
}

/** Midnight UTC of a YYYY-MM-DD date, in ms. */
export const dateMs = (date: string) => Date.parse(`${date}T00:00:00Z`);

/** The origins that cannot ship to `country`. */
export function originsNotServing(origins: Origin[], country: string): Origin[] {
  return origins.filter((o) => o.shipsTo && !o.shipsTo.has(country));
}

/**
 * Shipping options for one parcel from `origins` to `country`, cheapest first. Dispatch waits for
 * the slowest origin's handling and for `notBefore` (a preorder's release).
 */
export function shippingOptions(
  data: StoreData,
  origins: Origin[],
  country: string,
  now: number,
  notBefore?: number,
): FulfillmentOptionQuote[] {
  const handling = Math.max(0, ...origins.map((o) => o.handlingDays));
  const dispatch = Math.max(now + handling * DAY_MS, notBefore ?? 0);
  return ratesFor(data, country)
    .map((rate) => ({ rate, option: rateOption(rate, dispatch) }))
    .sort((a, b) => a.rate.price - b.rate.price || a.rate.maxDays - b.rate.maxDays)
    .map((r) => r.option);
}

function rateOption(rate: Rate, dispatch: number): FulfillmentOptionQuote {
  const days = rate.minDays === rate.maxDays ? `${rate.minDays}` : `${rate.minDays}-${rate.maxDays}`;
  return {
    id: rate.id,
    title: rate.title,
    description: `Delivered by ${rate.carrier} in ${days} days after dispatch`,
    carrier: rate.carrier,
    earliest: new Date(dispatch + rate.minDays * DAY_MS).toISOString(),
    latest: new Date(dispatch + rate.maxDays * DAY_MS).toISOString(),
    amount: rate.price,
  };
}

/** The service level behind a shipping option id. */
export function serviceLevelOf(data: StoreData, optionId: string): string | undefined {
  return data.rates.find((r) => r.id === optionId)?.serviceLevel;
}

const pickupOptionId = (location: Location) => `pickup-${location.location.id}`;

export function pickupOption(location: Location, now: number, notBefore?: number): FulfillmentOptionQuote {
  const hours = location.readyWithinHours;
  return {
    id: pickupOptionId(location),
    title: `Pick up at ${location.location.name}`,
    description: hours === 0 ? 'Ready as soon as the order is placed' : `Ready within ${hours} ${hours === 1 ? 'hour' : 'hours'}`,
    earliest: new Date(Math.max(now + hours * HOUR_MS, notBefore ?? 0)).toISOString(),
    amount: 0,
  };
}
