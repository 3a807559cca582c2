/**
 * The store validates the addresses a quote sets on its cart (Store API `cart/update-customer`,
 * AbstractAddressSchema::validate_callback) and merges fields left out from the saved address
 * (wp_parse_args in CartUpdateCustomer.php): a refused field is reported on the destination and
 * nothing is quoted for an address the cart does not hold; every field is sent, so none survives
 * from an earlier address.
 */
import { decodeHandle } from '../../../adapters/woocommerce/cart-handle.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PostalAddress, QuoteRequest } from '../../../adapters/contract.js';
import { ADDRESS, BUYER, wooSubject, type WooSubject } from './harness.js';

let subject: WooSubject;
beforeAll(async () => {
  subject = await wooSubject();
});
afterAll(() => subject?.close());

const to = (address: PostalAddress, handle?: string): QuoteRequest => ({
  ...(handle && { handle }),
  lines: [{ lineId: 'li_1', variantId: String(subject.sim.controls.idOf('bouquet_roses')), quantity: 1 }],
  buyer: BUYER,
  discountCodes: [],
  fulfillment: {
    multiGroup: false,
    methods: [{ methodId: 'm_1', type: 'shipping', lineIds: ['li_1'], destination: { address } }],
  },
});

describe('a destination the store refuses', () => {
  it('is reported field by field, with no rate or tax quoted for the address the cart kept', async () => {
    const chicago = await subject.adapter.quote(to(ADDRESS));
    expect(chicago.totals.tax).toBeGreaterThan(0);
    const refused = await subject.adapter.quote(to({ ...ADDRESS, region: 'ZZ', postalCode: '6060', phone: 'call me' }, chicago.handle));
    const method = refused.fulfillment![0]!;
    expect(method.destinationProblems).toEqual([
      { field: 'region', detail: expect.stringMatching(/^The provided state \(ZZ\) is not valid/) },
      { field: 'postalCode', detail: 'The provided postcode / ZIP is not valid' },
      { field: 'phone', detail: 'The provided phone number is not valid' },
    ]);
    expect(method.groups.flatMap((g) => g.options)).toEqual([]);
    expect(refused.totals.tax).toBeNull();
  });
});

describe('a new destination', () => {
  it('replaces every field of the previous one', async () => {
    const first = await subject.adapter.quote(to({ ...ADDRESS, extendedAddress: 'Apt 4' }));
    await subject.adapter.quote(to({ ...ADDRESS, streetAddress: '9 Oak St' }, first.handle));
    const cart = await fetch(`${subject.sim.url}/wp-json/wc/store/v1/cart`, {
      headers: { 'Cart-Token': decodeHandle(first.handle)!.token },
    });
    const body = (await cart.json()) as { shipping_address: { address_1: string; address_2: string } };
    expect(body.shipping_address).toMatchObject({ address_1: '9 Oak St', address_2: '' });
  });
});
