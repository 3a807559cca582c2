import { afterEach, describe, expect, it } from 'vitest';
import type { Adapter, CatalogChange, RequestContext } from '../../../adapters/contract.js';
import type { MemoryAdapter } from '../../../adapters/memory/index.js';
import { catalogGateway, NO_FULFILLMENT, productIds, type CatalogGateway } from './catalog-gateway.js';

/** The demo adapter, recording what reaches it, with a catalog-change hook the test can fire. */
function observed(adapter: MemoryAdapter) {
  const calls = {
    search: 0,
    lookup: [] as string[][],
    discoverFulfillment: [] as string[][],
    contexts: [] as Array<RequestContext | undefined>,
  };
  const listeners = new Set<(change: CatalogChange) => void>();
  const wrapped: Adapter = {
    kind: adapter.kind,
    capabilities: adapter.capabilities,
    storefrontUrl: adapter.storefrontUrl,
    search: (query, _signal, context) => (calls.search++, calls.contexts.push(context), adapter.search(query)),
    lookup: (ids, _signal, options) => (calls.lookup.push(ids), calls.contexts.push(options?.context), adapter.lookup(ids)),
    discoverFulfillment: (query) => (calls.discoverFulfillment.push(query.variantIds), adapter.discoverFulfillment(query)),
    pickupLocations: () => adapter.pickupLocations(),
    quote: (request) => adapter.quote(request),
    placeOrder: (request) => adapter.placeOrder(request),
    findOrderByReference: (reference) => adapter.findOrderByReference(reference),
    getOrder: (id) => adapter.getOrder(id),
    checkoutUrl: (request) => adapter.checkoutUrl(request),
    verifyWebhook: (headers, body) => adapter.verifyWebhook(headers, body),
    ping: () => adapter.ping(),
    onCatalogChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return { wrapped, calls, change: (change: CatalogChange) => listeners.forEach((l) => l(change)) };
}

let c: CatalogGateway | undefined;
afterEach(() => c?.close());

async function setup(ttlSeconds?: number) {
  let spy!: ReturnType<typeof observed>;
  c = await catalogGateway({
    wrap: (adapter) => (spy = observed(adapter)).wrapped,
    tenant: { policies: { allow_loopback_profiles: true, ...(ttlSeconds !== undefined && { catalog_cache_ttl_seconds: ttlSeconds }) } },
  });
  return { c, spy };
}

// These go through REST only: `call` also goes through MCP, which would double the counts.
describe('catalog cache', () => {
  it('repeated lookups do not reach the backend; a batch asks only for the ids it has not seen', async () => {
    const { c, spy } = await setup();
    await c.rest('lookup_catalog', { ids: ['florist_tee', 'nope'] });
    await c.rest('lookup_catalog', { ids: ['florist_tee', 'nope'] });
    const mixed = await c.rest('lookup_catalog', { ids: ['nope', 'florist_tee', 'bouquet_roses'] });
    expect(spy.calls.lookup).toEqual([['florist_tee', 'nope'], ['bouquet_roses']]);
    expect(productIds(mixed.body).sort()).toEqual(['bouquet_roses', 'florist_tee']);
    expect(mixed.body.messages).toEqual([{ type: 'info', code: 'not_found', content: 'nope', path: '$.ids[0]' }]);
    // get_product reads through the same cache.
    await c.rest('get_product', { id: 'bouquet_roses' });
    expect(spy.calls.lookup).toHaveLength(2);
  });

  it("keeps entries per buyer language, never per client address; the store hears the client's facts on a miss", async () => {
    const { c, spy } = await setup();
    const fr = { 'accept-language': 'fr-CA, fr;q=0.8' };
    await c.rest('search_catalog', { query: 'roses' }, { headers: fr, remoteAddress: '198.51.100.1' });
    await c.rest('search_catalog', { query: 'roses' }, { headers: fr, remoteAddress: '198.51.100.2' });
    await c.rest('search_catalog', { query: 'roses' }, { headers: { 'accept-language': 'en' }, remoteAddress: '198.51.100.2' });
    await c.rest('get_product', { id: 'bouquet_roses' }, { headers: fr });
    await c.rest('get_product', { id: 'bouquet_roses' }, { headers: { 'accept-language': 'de' } });
    expect(spy.calls.search).toBe(2);
    expect(spy.calls.lookup).toEqual([['bouquet_roses'], ['bouquet_roses']]);
    expect(spy.calls.contexts).toEqual([
      { clientIp: '198.51.100.1', language: 'fr-CA' },
      { clientIp: '198.51.100.2', language: 'en' },
      { clientIp: '127.0.0.1', language: 'fr-CA' },
      { clientIp: '127.0.0.1', language: 'de' },
    ]);
  });

  it('repeated searches and fulfillment answers are served from the cache', async () => {
    const { c, spy } = await setup();
    const payload = { query: 'roses', filters: { fulfills_to: { address_country: 'CA' } } };
    const first = await c.rest('search_catalog', payload);
    const again = await c.rest('search_catalog', payload);
    expect(again.body.products).toEqual(first.body.products);
    expect(spy.calls.search).toBe(1);
    expect(spy.calls.discoverFulfillment).toHaveLength(1);
  });

  it('a kept answer goes out as the first did: the same bytes, type and length, non-ASCII text included', async () => {
    const { c } = await setup();
    const search = () =>
      c.gw.app.inject({ method: 'POST', url: '/catalog/search', headers: c.gw.headers(), payload: JSON.stringify({ query: 'tulips' }) });
    const first = await search();
    const again = await search();
    expect(first.body).toContain('crème');
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(again.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(again.headers['content-length']).toBe(String(Buffer.byteLength(first.body)));
  });

  it('a reused answer is never handed to a caller with other capabilities', async () => {
    const { c } = await setup();
    const withFulfillment = await c.rest('search_catalog', { query: 'roses' });
    const without = await c.rest('search_catalog', { query: 'roses' }, { profile: NO_FULFILLMENT });
    const again = await c.rest('search_catalog', { query: 'roses' });
    expect(withFulfillment.body.products[0].variants[0].fulfillment).toBeDefined();
    expect(without.body.products[0].variants[0].fulfillment).toBeUndefined();
    expect(without.body.proto.capabilities).not.toHaveProperty(['dev.proto.shopping.fulfillment']);
    expect(again.body).toEqual(withFulfillment.body);
  });

  it('entries expire after the tenant TTL, on the injected clock', async () => {
    const { c, spy } = await setup(60);
    await c.rest('lookup_catalog', { ids: ['florist_tee'] });
    c.clock.now += 59_000;
    await c.rest('lookup_catalog', { ids: ['florist_tee'] });
    expect(spy.calls.lookup).toHaveLength(1);
    c.clock.now += 2_000;
    await c.rest('lookup_catalog', { ids: ['florist_tee'] });
    expect(spy.calls.lookup).toHaveLength(2);
  });

  it('a TTL of 0 turns the cache off', async () => {
    const { c, spy } = await setup(0);
    await c.rest('lookup_catalog', { ids: ['florist_tee'] });
    await c.rest('lookup_catalog', { ids: ['florist_tee'] });
    expect(spy.calls.lookup).toHaveLength(2);
  });

  it('a catalog change from the adapter drops the changed products, unknown ids and searches', async () => {
    const { c, spy } = await setup();
    await c.rest('lookup_catalog', { ids: ['florist_tee', 'TEE-S-GRN', 'bouquet_roses', 'new-product'] });
    await c.rest('search_catalog', { query: 'roses' });
    spy.change({ productIds: ['florist_tee'] });
    await c.rest('lookup_catalog', { ids: ['florist_tee', 'TEE-S-GRN', 'bouquet_roses', 'new-product'] });
    expect(spy.calls.lookup[1]).toEqual(['florist_tee', 'TEE-S-GRN', 'new-product']);
    await c.rest('search_catalog', { query: 'roses' });
    expect(spy.calls.search).toBe(2);
    spy.change({ all: true });
    await c.rest('lookup_catalog', { ids: ['bouquet_roses'] });
    expect(spy.calls.lookup[2]).toEqual(['bouquet_roses']);
  });

  it('a tenant built anew (another gateway, a configuration reload) starts with its own cache', async () => {
    const first = await setup();
    await first.c.rest('lookup_catalog', { ids: ['florist_tee'] });
    let second!: ReturnType<typeof observed>;
    const other = await catalogGateway({ wrap: (adapter) => (second = observed(adapter)).wrapped });
    try {
      await other.rest('lookup_catalog', { ids: ['florist_tee'] });
      expect(second.calls.lookup).toEqual([['florist_tee']]);
    } finally {
      await other.close();
    }
  });
});
