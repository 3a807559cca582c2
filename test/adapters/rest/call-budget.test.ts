/**
 * The REST adapter's call budget: one run of an operation makes at most `max_calls_per_run` store
 * calls (default 100), so a mapping that loops over ids cannot flood the store; a tenant whose
 * store needs more per run says so, and reaching the budget is an error that names the setting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BackendError } from '../../../adapters/contract.js';
import { flowersAdapter, startRestStore, type TestRestStore } from '../../helpers/rest-store.js';

let store: TestRestStore;
beforeAll(async () => {
  store = await startRestStore();
});
afterAll(() => store.close());

/** A lookup that asks the store twice per id: once for the item, once again (a store with a detail call per id). */
const twoCallsPerId = {
  steps: [
    { name: 'item', method: 'GET', path: '/items/lookup', for_each: 'ids', query: '{"keys": $item}' },
    { name: 'detail', method: 'GET', path: '/items/lookup', for_each: 'ids', query: '{"keys": $item}' },
  ],
  response: '[]',
};
const ids = Array.from({ length: 60 }, (_, i) => `no_such_item_${i}`);

describe('REST adapter call budget', () => {
  it('stops a run at the default 100 calls with an error that names the setting', async () => {
    const adapter = await flowersAdapter(store, Date.now, { operations: { lookup: twoCallsPerId } });
    const failure = await adapter.lookup(ids).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(BackendError);
    expect((failure as BackendError).retryable).toBe(false);
    expect((failure as Error).message).toMatch(/lookup: step detail would make more than 100 store calls in one run/);
    expect((failure as Error).message).toContain('adapter.settings.max_calls_per_run');
    await adapter.close();
  });

  it('runs 120 calls for a tenant whose budget allows them, and stops a smaller budget early', async () => {
    const roomy = await flowersAdapter(store, Date.now, { max_calls_per_run: 150, operations: { lookup: twoCallsPerId } });
    await store.control('DELETE', '/calls');
    await expect(roomy.lookup(ids)).resolves.toEqual([]);
    expect(await store.control('GET', '/calls')).toEqual({ 'GET /api/v2/items/lookup': 120 });
    await roomy.close();
    const tight = await flowersAdapter(store, Date.now, { max_calls_per_run: 10, operations: { lookup: twoCallsPerId } });
    await expect(tight.lookup(ids)).rejects.toThrow(/step item would make more than 10 store calls in one run/);
    await tight.close();
  });
});

describe('REST adapter call budget: batching (docs/adapters/rest.md)', () => {
  it('looks up 50 ids in 3 calls of at most 20 keys', async () => {
    const batched = {
      steps: [
        {
          name: 'items',
          method: 'GET',
          path: '/items/lookup',
          for_each: '$map([0..$floor(($count(ids) - 1) / 20)], function($g) { [ids[[$g * 20 .. $g * 20 + 19]]] })',
          query: '{"keys": $join($item, ",")}',
        },
      ],
      response:
        '[$steps.items.data.{"product": $product(item), "inputs": [matched.{"id": key, "variantId": variant_id, "match": "exact"}]}]',
    };
    const adapter = await flowersAdapter(store, Date.now, { operations: { lookup: batched } });
    const wanted = [...ids.slice(0, 49), 'bouquet_roses'];
    await store.control('DELETE', '/calls');
    const found = await adapter.lookup(wanted).catch((e: unknown) => e);
    expect(await store.control('GET', '/calls')).toEqual({ 'GET /api/v2/items/lookup': 3 });
    expect(found).toMatchObject([{ product: { id: expect.any(String) }, inputs: [{ id: 'bouquet_roses' }] }]);
    await adapter.close();
  });
});
