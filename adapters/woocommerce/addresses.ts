/**
 * Addresses between the contract and WooCommerce, which names the same fields in the Store API
 * (cart customer, checkout) and in `wc/v3` orders (WC_Order's address props).
 */
import type { PostalAddress, QuoteRequest } from '../contract.js';
import type { WcOrder } from './wc-shapes.js';

export interface WcAddress {
  first_name: string;
  last_name: string;
  company: string;
  address_1: string;
  address_2: string;
  city: string;
  state: string;
  postcode: string;
  country: string;
  phone: string;
}

/**
 * Every field, empty when the contract's address does not say it: the Store API merges the fields
 * left out from the address it saved before (wp_parse_args in
 * src/StoreApi/Routes/V1/CartUpdateCustomer.php), so an empty one clears it.
 */
export const wcAddress = (a: Partial<PostalAddress> | undefined): WcAddress => ({
  first_name: a?.firstName ?? '',
  last_name: a?.lastName ?? '',
  company: '',
  address_1: a?.streetAddress ?? '',
  address_2: a?.extendedAddress ?? '',
  city: a?.locality ?? '',
  state: a?.region ?? '',
  postcode: a?.postalCode ?? '',
  country: a?.country ?? '',
  phone: a?.phone ?? '',
});

/** An order's address as the contract's (an empty second line left out). */
export const fromWcAddress = (a: WcOrder['shipping']): PostalAddress => ({
  firstName: a.first_name,
  lastName: a.last_name,
  streetAddress: a.address_1,
  ...(a.address_2 && { extendedAddress: a.address_2 }),
  locality: a.city,
  region: a.state,
  country: a.country,
  postalCode: a.postcode,
});

/** The shipping destination of a request: the first shipping method's address. */
export function destinationOf(request: QuoteRequest): PostalAddress | undefined {
  for (const method of request.fulfillment?.methods ?? []) {
    if (method.type === 'shipping' && method.destination && 'address' in method.destination) return method.destination.address;
  }
  return undefined;
}
