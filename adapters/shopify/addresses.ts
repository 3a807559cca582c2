/**
 * Addresses between the contract and Shopify, both ways, from one field table: Shopify's
 * `CartDeliveryAddressInput` / `MailingAddressInput` going out, `MailingAddress` coming back
 * (whose country is `countryCodeV2`).
 */
import type { PostalAddress } from '../contract.js';

const FIELDS = [
  ['firstName', 'firstName'],
  ['lastName', 'lastName'],
  ['streetAddress', 'address1'],
  ['extendedAddress', 'address2'],
  ['locality', 'city'],
  ['region', 'provinceCode'],
  ['country', 'countryCode'],
  ['postalCode', 'zip'],
  ['phone', 'phone'],
] as const satisfies ReadonlyArray<readonly [keyof PostalAddress, string]>;

type ShopifyField = (typeof FIELDS)[number][1];
export type ShopifyAddressInput = Partial<Record<ShopifyField, string>>;

export function toShopifyAddress(a: PostalAddress): ShopifyAddressInput {
  return Object.fromEntries(FIELDS.flatMap(([ours, theirs]) => (a[ours] ? [[theirs, a[ours]]] : [])));
}

/** A Shopify MailingAddress as the contract's address (empty fields left out). */
export function fromShopifyAddress(a: Partial<Record<ShopifyField | 'countryCodeV2', string | null>>): PostalAddress {
  const source = { ...a, countryCode: a.countryCodeV2 ?? a.countryCode };
  return Object.fromEntries(FIELDS.flatMap(([ours, theirs]) => (source[theirs] ? [[ours, source[theirs]]] : [])));
}
