/**
 * Idempotency keys that cannot replay a decline (issue 45 item 12). A store that keeps the first
 * answer per Idempotency-Key, whatever it was (as Stripe's does; the reference store with
 * `replayEveryAnswer`), declines every later card of a checkout keyed `"order-" & reference`. The
 * example tenants key each attempt instead (`$digest` of the payment and the total) and read the
 * store's state back before ordering, so a retried attempt gets its first answer, a new card is
 * charged, and an order placed by an attempt whose answer was lost is found, never placed twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentCredential, QuoteRequest } from '../../../adapters/contract.js';
import type { RestAdapter } from '../../../adapters/rest/index.js';
import {
  FLOWERS_CART_FILE,
  FLOWERS_FILE,
  FLOWERS_STATELESS_FILE,
  flowersAdapter,
  flowersTenant,
  startRestStore,
  type TestRestStore,
} from '../../helpers/rest-store.js';

let store: TestRestStore;
beforeAll(async () => {
  store = await startRestStore({ replayEveryAnswer: true });
});
afterAll(() => store.close());

const lines: QuoteRequest['lines'] = [{ lineId: 'li_1', variantId: 'ebook_flower_care', quantity: 1 }];

async function attempt(adapter: RestAdapter, reference: string, token: string, handle?: string) {
  const quote = await adapter.quote({ lines, discountCodes: [], ...(handle && { handle }) });
  const credential: PaymentCredential = { type: 'PAYMENT_GATEWAY', token };
  const placed = await adapter.placeOrder({
    reference,
    quote: { lines, discountCodes: [], ...(quote.handle && { handle: quote.handle }) },
    expectedTotal: quote.totals.total,
    buyer: { email: 'ann@example.com' },
    payment: { mode: 'store_charged', handlerId: 'store_card', credential },
  });
  return { placed, handle: quote.handle };
}

describe('REST idempotency keys on a store that replays every answer', () => {
  it.each([
    ['flowers.yaml', FLOWERS_FILE],
    ['flowers-cart.yaml', FLOWERS_CART_FILE],
    ['flowers-stateless.yaml', FLOWERS_STATELESS_FILE],
  ])('%s: a declined card, then another card for the same checkout is charged; a retry is the same order', async (name, file) => {
    const adapter = await flowersAdapter(store, Date.now, {}, file);
    const reference = `chk_idem_${name}`;
    const declined = await attempt(adapter, reference, 'fail_token');
    expect(declined.placed).toMatchObject({ status: 'rejected', reason: 'payment_declined' });
    const paid = await attempt(adapter, reference, 'success_token', declined.handle);
    expect(paid.placed).toMatchObject({ status: 'placed' });
    const again = await attempt(adapter, reference, 'success_token', declined.handle);
    expect(again.placed).toEqual(paid.placed);
    await adapter.close();
  });

  it('a key made of the reference alone replays the decline to every later card (why the examples key each attempt)', async () => {
    const settings = flowersTenant(store).adapter.settings as Record<string, any>;
    const unsafe = await flowersAdapter(store, Date.now, {
      operations: {
        ...settings.operations,
        place_order: { ...settings.operations.place_order, headers: '{"Idempotency-Key": "order-" & reference}' },
      },
    });
    await attempt(unsafe, 'chk_idem_unsafe', 'fail_token');
    expect((await attempt(unsafe, 'chk_idem_unsafe', 'success_token')).placed).toMatchObject({
      status: 'rejected',
      reason: 'payment_declined',
    });
    await unsafe.close();
  });

  it('finds the order an attempt placed when its answer was lost, rather than ordering again under a new key', async () => {
    const adapter = await flowersAdapter(store, Date.now, {}, FLOWERS_CART_FILE);
    const first = await attempt(adapter, 'chk_idem_lost', 'success_token');
    const orders = await store.call('GET', '/orders?reference=chk_idem_lost');
    expect(orders.body.data).toHaveLength(1);
    await store.control('DELETE', '/calls');
    // Another attempt (another card) for the same checkout: the read-back finds the order; no POST /orders.
    const second = await attempt(adapter, 'chk_idem_lost', 'other_success_token', first.handle);
    expect(second.placed).toEqual(first.placed);
    expect((await store.control('GET', '/calls'))['POST /api/v2/orders']).toBeUndefined();
    await adapter.close();
  });
});
