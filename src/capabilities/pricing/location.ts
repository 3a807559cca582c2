/**
 * The buyer's location hint for estimates (tax), from `context`. Only codes are passed on: an
 * ISO 3166-1 alpha-2 country and a subdivision code ("IL" or "US-IL"); a region written out as a
 * name is dropped, since a store would miss its rule and could quote the wrong tax instead of
 * saying it cannot tell yet.
 */
import type { QuoteRequest } from '../../../adapters/contract.js';
import type { Context } from '../../../schemas/common.js';

const COUNTRY = /^[A-Z]{2}$/;
const SUBDIVISION = /^[A-Z0-9]{1,3}$/;

export function locationHint(context: Context | undefined): QuoteRequest['location'] {
  const country = context?.address_country?.trim().toUpperCase();
  if (!country || !COUNTRY.test(country)) return undefined;
  const raw = context?.address_region?.trim().toUpperCase();
  const region = raw?.startsWith(`${country}-`) ? raw.slice(country.length + 1) : raw;
  const postalCode = context?.postal_code?.trim();
  return {
    country,
    ...(region && SUBDIVISION.test(region) && { region }),
    ...(postalCode && { postalCode }),
  };
}
