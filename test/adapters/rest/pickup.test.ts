/**
 * Pickup through the REST adapter (issue 45 item 5): a tenant that declares `capabilities.pickup`
 * lists the store's pickup locations through a mapped call (`pickup_locations`) and quotes, selects
 * and places a pickup at one, as the demo and Shopify adapters do. The reference store
 * (examples/rest-store) collects at its shops (config/demo/shipping.yaml `pickup_locations`);
 * config/rest-demo/tenants/flowers.yaml maps them. A tenant that declares no pickup makes no call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuoteRequest } from '../../../adapters/contract.js';
import type { RestAdapter } from '../../../adapters/rest/index.js';
import { FLOWERS_CART_FILE, flowersAdapter, startRestStore, type TestRestStore } from '../../helpers/rest-store.js';

let store: TestRestStore;
let adapter: RestAdapter;
beforeAll(async () => {
  store = await startRestStore();
  adapter = await flowersAdapter(store);
});
afterAll(async () => {
  await adapter.close();
  await store.close();
});

const pickupAt = (locationId: string, selected?: string, handle?: string): QuoteRequest => ({
  ...(handle && { handle }),
  lines: [{ lineId: 'li_1', variantId: 'bouquet_roses', quantity: 2 }],
  discountCodes: [],
  buyer: { email: 'ann@example.com', firstName: 'Ann', lastName: 'Lee' },
  fulfillment: {
    multiGroup: false,
    methods: [
      {
        methodId: 'm_pickup',
        type: 'pickup',
        lineIds: ['li_1'],
        destination: { locationId },
        ...(selected && { selectedOptions: { default: selected } }),
      },
    ],
  },
});

describe('REST adapter pickup', () => {
  it("declares pickup and lists the store's pickup locations with their addresses", async () => {
    expect(adapter.capabilities.pickup).toBe(true);
    const locations = await adapter.pickupLocations();
    expect(locations).toEqual([
      {
        id: 'loop',
        name: 'Petal & Stem Loop Studio',
        address: { streetAddress: '35 E Wacker Dr', locality: 'Chicago', region: 'IL', country: 'US', postalCode: '60601' },
        readyWithinHours: 2,
      },
      expect.objectContaining({ id: 'evanston', name: 'Petal & Stem Evanston Shop', readyWithinHours: 4 }),
    ]);
  });

  it('quotes a free pickup option at a location, selects it into the totals and places a pickup order', async () => {
    const open = await adapter.quote(pickupAt('loop'));
    expect(open.availableMethods.find((m) => m.type === 'pickup')?.lineIds).toEqual(['li_1']);
    const group = open.fulfillment![0]!.groups[0]!;
    expect(group.lineIds).toEqual(['li_1']);
    expect(group.options).toEqual([expect.objectContaining({ title: 'Pick up at Petal & Stem Loop Studio', amount: 0 })]);
    const chosen = await adapter.quote(pickupAt('loop', group.options[0]!.id, open.handle));
    expect(chosen.fulfillment![0]!.groups[0]!.selectedOptionId).toBe(group.options[0]!.id);
    expect(chosen.totals.shipping).toBe(0);
    const placed = await adapter.placeOrder({
      reference: 'chk_pickup_1',
      quote: pickupAt('loop', group.options[0]!.id, chosen.handle),
      expectedTotal: chosen.totals.total,
      buyer: { email: 'ann@example.com', firstName: 'Ann', lastName: 'Lee' },
      payment: { mode: 'gateway_charged', record: { handlerId: 'sandbox', transactionId: 'tx_pickup_1', amount: chosen.totals.total } },
    } as never);
    expect(placed).toMatchObject({ status: 'placed' });
    const order = await adapter.getOrder((placed as { orderId: string }).orderId);
    expect(order!.expectations).toEqual([
      expect.objectContaining({
        method: 'pickup',
        lines: [{ id: expect.any(String), quantity: 2 }],
        destination: expect.objectContaining({ streetAddress: '35 E Wacker Dr', locality: 'Chicago' }),
        description: 'Pick up at Petal & Stem Loop Studio',
      }),
    ]);
  });

  it('says why a location the store does not have offers no option', async () => {
    const quote = await adapter.quote(pickupAt('atlantis'));
    expect(quote.fulfillment![0]!.groups[0]!.options).toEqual([]);
    expect(quote.fulfillment![0]!.groups[0]!.unavailableReason).toMatch(/not one of our pickup locations/);
  });

  it('makes no call for a tenant that declares no pickup', async () => {
    const cart = await flowersAdapter(store, Date.now, {}, FLOWERS_CART_FILE);
    await store.control('DELETE', '/calls');
    expect(cart.capabilities.pickup).toBe(false);
    expect(await cart.pickupLocations()).toEqual([]);
    expect(await store.control('GET', '/calls')).toEqual({});
    await cart.close();
  });
});
