/**
 * The extension table against the schemas and the capability registry: every registered
 * extension's members are composed into the request and response schemas of the resources it
 * extends, and the registry declares it as extending them (so negotiation prunes it with them);
 * the catalog filters an extension owns are declared in the catalog's filters schema.
 */
import { describe, expect, it } from 'vitest';
import { Cart, CartCreateRequest, CartUpdateRequest } from '../../schemas/cart.js';
import { CatalogFilters } from '../../schemas/catalog.js';
import { Checkout, CheckoutCreateRequest, CheckoutUpdateRequest } from '../../schemas/checkout.js';
import { extensions } from '../../src/extensions/table.js';
import { CAPABILITIES, CAPABILITY } from '../../src/protocol/capability-registry.js';

const SCHEMAS = {
  cart: { requests: [CartCreateRequest, CartUpdateRequest], response: Cart, capability: CAPABILITY.cart },
  checkout: { requests: [CheckoutCreateRequest, CheckoutUpdateRequest], response: Checkout, capability: CAPABILITY.checkout },
} as const;

describe('registered extensions', () => {
  for (const extension of extensions) {
    for (const resource of ['cart', 'checkout'] as const) {
      const steps = extension[resource];
      if (!steps) continue;
      it(`${extension.capability} on ${resource}: its members are in the ${resource} schemas and it extends ${resource}`, () => {
        const { requests, response, capability } = SCHEMAS[resource];
        for (const request of requests) {
          for (const [name, schema] of Object.entries(steps.members.request))
            expect(request.properties[name as keyof typeof request.properties]).toBe(schema);
        }
        for (const [name, schema] of Object.entries(steps.members.response))
          expect(response.properties[name as keyof typeof response.properties]).toBe(schema);
        expect(CAPABILITIES[extension.capability].extends).toContain(capability);
      });
    }
  }

  for (const extension of extensions) {
    const catalog = extension.catalog;
    if (!catalog) continue;
    it(`${extension.capability} in the catalog: its filters are members of the catalog filters schema, owned once`, () => {
      const owners = extensions.flatMap((e) => e.catalog?.filters ?? []);
      for (const name of catalog.filters) {
        expect(Object.keys(CatalogFilters.properties)).toContain(name);
        expect(owners.filter((owner) => owner === name)).toHaveLength(1);
      }
    });
  }

  it('are discount and fulfillment, each once', () => {
    expect(extensions.map((e) => e.capability)).toEqual([CAPABILITY.discount, CAPABILITY.fulfillment]);
  });
});
