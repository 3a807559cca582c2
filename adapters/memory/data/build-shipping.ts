/** Origins, rates (shipping_rates.csv + shipping.yaml) and pickup locations, normalized. */
import type { PostalAddress } from '../../contract.js';
import type { Location, Origin, Rate } from '../model.js';
import type { ShippingRateRow } from './csv-files.js';
import { fileError } from './read-file.js';
import type { AddressFields, ShippingFile } from './shipping-file.js';

export interface ShippingSources {
  shipping: { file: string; data: ShippingFile };
  rateRows: { file: string; rows: ShippingRateRow[] };
}

function toPostalAddress(a: AddressFields): PostalAddress {
  return {
    streetAddress: a.street_address,
    locality: a.locality,
    ...(a.region && { region: a.region }),
    country: a.country,
    postalCode: a.postal_code,
  };
}

export function buildOrigins(src: ShippingSources): Map<string, Origin> {
  const origins = new Map<string, Origin>();
  src.shipping.data.origins.forEach((o, i) => {
    if (origins.has(o.id)) throw fileError(src.shipping.file, `$.origins[${i}].id`, `"${o.id}" is listed twice`);
    origins.set(o.id, {
      id: o.id,
      name: o.name,
      address: toPostalAddress(o.address),
      handlingDays: o.handling_days,
      ...(o.ships_to && { shipsTo: new Set(o.ships_to) }),
    });
  });
  return origins;
}

export function buildRates(src: ShippingSources): Rate[] {
  const { file, data } = src.shipping;
  const rows = new Map(src.rateRows.rows.map((r) => [r.id, r]));
  const rates: Rate[] = [];
  data.rates.forEach((entry, i) => {
    const at = `$.rates[${i}]`;
    if (rates.some((r) => r.id === entry.id)) throw fileError(file, `${at}.id`, `"${entry.id}" is listed twice`);
    if (entry.max_days < entry.min_days) throw fileError(file, `${at}.max_days`, 'must be >= min_days');
    const row = rows.get(entry.id);
    const own = [entry.country, entry.service_level, entry.price, entry.title];
    if (row && own.some((v) => v !== undefined)) throw fileError(file, at, `repeats ${src.rateRows.file} (keep only carrier and days)`);
    if (!row && own.some((v) => v === undefined))
      throw fileError(file, at, 'needs country, service_level, price and title (it is not in the CSV)');
    rates.push({
      id: entry.id,
      country: row?.country_code ?? entry.country!,
      serviceLevel: row?.service_level ?? entry.service_level!,
      price: row ? Number(row.price) : entry.price!,
      title: row?.title ?? entry.title!,
      carrier: entry.carrier,
      minDays: entry.min_days,
      maxDays: entry.max_days,
    });
  });
  for (const row of src.rateRows.rows) {
    if (!rates.some((r) => r.id === row.id))
      throw fileError(file, '$.rates', `has no entry for "${row.id}" of ${src.rateRows.file} (carrier and days)`);
  }
  return rates;
}

export function buildLocations(src: ShippingSources, variantIds: Set<string>): Location[] {
  const { file, data } = src.shipping;
  const ids = new Set<string>();
  return data.pickup_locations.map((l, i) => {
    const at = `$.pickup_locations[${i}]`;
    if (ids.has(l.id)) throw fileError(file, `${at}.id`, `"${l.id}" is listed twice`);
    ids.add(l.id);
    for (const variantId of Object.keys(l.stock)) {
      if (!variantIds.has(variantId)) throw fileError(file, `${at}.stock["${variantId}"]`, 'is not a catalog variant id');
    }
    return {
      location: { id: l.id, name: l.name, address: toPostalAddress(l.address), readyWithinHours: l.ready_within_hours },
      readyWithinHours: l.ready_within_hours,
      stock: new Map(Object.entries(l.stock)),
    };
  });
}
