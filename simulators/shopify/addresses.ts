/** Addresses as buyers and merchants type them into Shopify, and as its APIs show them. */
import type { PostalAddress } from '../../adapters/contract.js';

/** Shopify's CartDeliveryAddressInput / MailingAddressInput. */
export interface DeliveryAddressInput {
  address1?: string | null;
  address2?: string | null;
  city?: string | null;
  company?: string | null;
  countryCode?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  phone?: string | null;
  provinceCode?: string | null;
  zip?: string | null;
}

/** The address as the shop's pricing engine takes it. */
export function postalAddress(a: DeliveryAddressInput): PostalAddress {
  return {
    ...(a.firstName && { firstName: a.firstName }),
    ...(a.lastName && { lastName: a.lastName }),
    ...(a.address1 && { streetAddress: a.address1 }),
    ...(a.address2 && { extendedAddress: a.address2 }),
    ...(a.city && { locality: a.city }),
    ...(a.provinceCode && { region: a.provinceCode }),
    ...(a.countryCode && { country: a.countryCode }),
    ...(a.zip && { postalCode: a.zip }),
    ...(a.phone && { phone: a.phone }),
  };
}

/** Storefront CartDeliveryAddress and Admin MailingAddress (the fields either selects). */
export const mailingAddress = (id: string, a: DeliveryAddressInput) => ({
  id,
  address1: a.address1 ?? null,
  address2: a.address2 ?? null,
  city: a.city ?? null,
  company: a.company ?? null,
  countryCode: a.countryCode ?? null,
  countryCodeV2: a.countryCode ?? null,
  country: a.countryCode ?? null,
  firstName: a.firstName ?? null,
  lastName: a.lastName ?? null,
  name: [a.firstName, a.lastName].filter(Boolean).join(' ') || null,
  phone: a.phone ?? null,
  provinceCode: a.provinceCode ?? null,
  province: a.provinceCode ?? null,
  zip: a.zip ?? null,
  latitude: null,
  longitude: null,
  formattedArea: [a.city, a.provinceCode, a.countryCode].filter(Boolean).join(', ') || null,
  formatted: () => [a.address1, a.address2, [a.city, a.provinceCode, a.zip].filter(Boolean).join(' '), a.countryCode].filter(Boolean),
});
