/**
 * Postal addresses (shipping destinations, billing addresses, store locations) between the protocol
 * (snake_case members, any country spelling) and the adapter contract (camelCase, ISO 3166-1
 * alpha-2, subdivision codes without the country prefix).
 * Members are trimmed and empty ones dropped, so one address always reads the same.
 */
import type { PostalAddress as StoreAddress } from '../../adapters/contract.js';
import type { PostalAddress } from '../../schemas/fulfillment.js';
import { regionCode, toAlpha2 } from './country-code.js';

const MEMBERS: ReadonlyArray<readonly [keyof PostalAddress, keyof StoreAddress]> = [
  ['first_name', 'firstName'],
  ['last_name', 'lastName'],
  ['street_address', 'streetAddress'],
  ['extended_address', 'extendedAddress'],
  ['address_locality', 'locality'],
  ['address_region', 'region'],
  ['address_country', 'country'],
  ['postal_code', 'postalCode'],
  ['phone_number', 'phone'],
];

export const ADDRESS_MEMBERS: ReadonlyArray<keyof PostalAddress> = MEMBERS.map(([member]) => member);

/** The protocol member of a contract address field (`postalCode` -> `postal_code`). */
export const memberOf = (field: keyof StoreAddress): keyof PostalAddress => MEMBERS.find(([, f]) => f === field)![0];

/** The address with trimmed members, an alpha-2 country and a bare region code; `badCountry` when the country names none. */
export function normalizeAddress(address: PostalAddress): { address: PostalAddress; badCountry?: true } {
  const normalized: PostalAddress = {};
  for (const member of ADDRESS_MEMBERS) {
    const value = address[member]?.trim();
    if (value) normalized[member] = value;
  }
  if (normalized.address_country === undefined) return { address: normalized };
  const country = toAlpha2(normalized.address_country);
  if (!country) return { address: normalized, badCountry: true };
  normalized.address_country = country;
  if (normalized.address_region) normalized.address_region = regionCode(normalized.address_region, country);
  return { address: normalized };
}

export function toStoreAddress(address: PostalAddress): StoreAddress {
  const store: StoreAddress = {};
  for (const [member, field] of MEMBERS) if (address[member] !== undefined) store[field] = address[member];
  return store;
}

export function fromStoreAddress(address: StoreAddress): PostalAddress {
  const protocol: PostalAddress = {};
  for (const [member, field] of MEMBERS) if (address[field] !== undefined) protocol[member] = address[field];
  return protocol;
}
