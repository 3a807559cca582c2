/**
 * The stateless example tenant (examples/rest-tenants/tenants/flowers-stateless.yaml): quotes give
 * no backend handle, so the gateway keeps none and the store is never asked about a cart again;
 * no checkout page is mapped, so none is asked for (the storefront is the page) and handoff is not
 * offered. Placement prices the request once more and orders it, once per reference.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RestAdapter } from '../../../adapters/rest/index.js';
import { FLOWERS_STATELESS_FILE, flowersAdapter, startRestStore, type TestRestStore } from '../../helpers/rest-store.js';

let store: TestRestStore;
let adapter: RestAdapter;
beforeAll(async () => {
  store = await startRestStore();
  adapter = await flowersAdapter(store, Date.now, {}, FLOWERS_STATELESS_FILE);
});
afterAll(async () => {
  await adapter.close();
  await store.close();
});

const request = { currency: 'USD', lines: [{ lineId: 'l1', variantId: 'bouquet_roses', quantity: 2 }], discountCodes: ['10OFF'] };

describe('a stateless REST tenant', () => {
  it('quotes without a handle, and offers no handoff', async () => {
    const quote = await adapter.quote(request);
    expect(quote.handle).toBeUndefined();
    expect(quote.lines.map((l) => [l.lineId, l.quantity])).toEqual([['l1', 2]]);
    expect(quote.totals.itemsDiscount).toBe(700);
    expect(adapter.capabilities.finishing).toEqual(['gateway_charged', 'store_charged']);
  });

  it('asks the store for no checkout page: the storefront is the page', async () => {
    // Any store call now would fail: there is none.
    store.faults.inject({ mode: 'error', count: 1 });
    expect(await adapter.checkoutUrl({ reference: 'chk_1', quote: request })).toEqual({ url: store.origin });
    store.faults.clear();
  });

  it('places the order once per reference, with no handle to place it on', async () => {
    // Nothing to ship: the order needs no address or shipping option.
    const request = { currency: 'USD', lines: [{ lineId: 'l1', variantId: 'ebook_flower_care', quantity: 1 }], discountCodes: [] };
    const quote = await adapter.quote(request);
    const place = () =>
      adapter.placeOrder({
        reference: 'chk_stateless_1',
        quote: request,
        expectedTotal: quote.totals.total,
        buyer: { email: 'ann@example.com' },
        payment: { mode: 'gateway_charged', record: { handlerId: 'sandbox', transactionId: 'tx_1', amount: quote.totals.total } },
      });
    const first = await place();
    expect(first).toMatchObject({ status: 'placed', orderId: expect.any(String) });
    expect(await place()).toMatchObject({ status: 'placed', orderId: (first as { orderId: string }).orderId });
  });
});
