/** The business's fulfillment ids and address normalization, which keep those ids stable. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeAddress, toStoreAddress, fromStoreAddress } from '../../../src/protocol/postal-address.js';
import { destinationId, freshMethodId, groupId, groupKeyOf } from '../../../src/extensions/fulfillment/ids.js';

describe('group ids', () => {
  it('read back into their method and key, whatever the key', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]+_[1-9]$/), fc.string({ unit: 'grapheme', minLength: 1 }), (methodId, key) => {
        expect(groupKeyOf(methodId, groupId(methodId, key))).toBe(key);
      }),
    );
  });

  it("are not another method's, nor anything that was not made by groupId", () => {
    const id = groupId('shipping_1', 'florist');
    expect(groupKeyOf('shipping_2', id)).toBeUndefined();
    expect(groupKeyOf('shipping_1', 'shipping_1.not base64!')).toBeUndefined();
    expect(groupKeyOf('shipping_1', 'shipping_10.ZmxvcmlzdA')).toBeUndefined();
  });
});

describe('method ids', () => {
  it('take the smallest number free for their type', () => {
    expect(freshMethodId('shipping', new Set())).toBe('shipping_1');
    expect(freshMethodId('shipping', new Set(['shipping_1', 'pickup_2', 'shipping_3']))).toBe('shipping_2');
  });
});

describe('addresses', () => {
  it('normalize spellings of one address to one destination id', () => {
    const a = normalizeAddress({ street_address: ' 123 Main St ', address_country: 'USA', address_region: 'us-il', postal_code: '60601' });
    const b = normalizeAddress({
      street_address: '123 Main St',
      address_country: 'us',
      address_region: 'IL',
      postal_code: '60601',
      address_locality: '  ',
    });
    expect(a).toEqual({ address: { street_address: '123 Main St', address_country: 'US', address_region: 'IL', postal_code: '60601' } });
    expect(destinationId(a.address)).toBe(destinationId(b.address));
    expect(destinationId(a.address)).not.toBe(destinationId({ ...a.address, postal_code: '60602' }));
    expect(destinationId(a.address)).toMatch(/^dest_[A-Za-z0-9_-]{16}$/);
  });

  it('flag a country that names none', () => {
    expect(normalizeAddress({ address_country: 'Atlantis', address_region: 'XX' })).toEqual({
      address: { address_country: 'Atlantis', address_region: 'XX' },
      badCountry: true,
    });
  });

  it('map to the adapter contract and back without loss', () => {
    const address = {
      first_name: 'Ann',
      last_name: 'Lee',
      street_address: '1 Front St W',
      extended_address: 'Suite 2',
      address_locality: 'Toronto',
      address_region: 'ON',
      address_country: 'CA',
      postal_code: 'M5J 2X5',
      phone_number: '+1 416 555 0100',
    };
    expect(toStoreAddress(address)).toEqual({
      firstName: 'Ann',
      lastName: 'Lee',
      streetAddress: '1 Front St W',
      extendedAddress: 'Suite 2',
      locality: 'Toronto',
      region: 'ON',
      country: 'CA',
      postalCode: 'M5J 2X5',
      phone: '+1 416 555 0100',
    });
    expect(fromStoreAddress(toStoreAddress(address))).toEqual(address);
  });
});
