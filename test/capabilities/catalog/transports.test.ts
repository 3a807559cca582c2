import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewaySecret } from '../../../src/config/gateway-secret.js';
import { catalogGateway, productIds, type CatalogGateway } from './catalog-gateway.js';

let c: CatalogGateway;
beforeAll(async () => {
  c = await catalogGateway();
});
afterAll(() => c.close());

describe('one operation, two transports', () => {
  it('lists the three catalog tools, each taking {meta, catalog}', async () => {
    const res = await c.gw.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    const tools = res.json().result.tools as Array<{
      name: string;
      inputSchema: { required: string[]; properties: Record<string, { required?: string[] }> };
    }>;
    const catalog = tools.filter((t) => ['search_catalog', 'lookup_catalog', 'get_product'].includes(t.name));
    expect(catalog.map((t) => t.name)).toEqual(['search_catalog', 'lookup_catalog', 'get_product']);
    for (const tool of catalog) expect(tool.inputSchema.required).toEqual(['meta', 'catalog']);
    expect(catalog[1]!.inputSchema.properties.catalog!.required).toEqual(['ids']);
    expect(catalog[2]!.inputSchema.properties.catalog!.required).toEqual(['id']);
  });

  it.each([
    ['search_catalog', { query: 'tulips' }],
    ['lookup_catalog', { ids: ['florist_tee', 'nope'] }],
    ['get_product', { id: 'florist_tee_m_white', selected: [{ name: 'Size', label: 'L' }] }],
    ['get_product', { id: 'nope' }],
  ] as const)('%s %j: the MCP structuredContent is the REST body', async (op, payload) => {
    const rest = await c.rest(op, payload);
    const mcp = await c.mcp(op, { meta: c.gw.meta(), catalog: payload });
    expect(rest.status).toBe(200);
    expect(mcp.result.structuredContent).toEqual(rest.body);
  });

  it.each([
    ['search_catalog', { pagination: { limit: -1 } }],
    ['lookup_catalog', { ids: [] }],
    ['get_product', { id: 42 }],
  ] as const)('%s %j: the MCP error carries the REST error', async (op, payload) => {
    const rest = await c.rest(op, payload);
    const mcp = await c.mcp(op, { meta: c.gw.meta(), catalog: payload });
    expect(rest.status).toBe(400);
    expect(mcp.error).toEqual({ code: -32602, message: rest.body.content, data: { code: rest.body.code, http_status: 400 } });
  });

  it('publishes both catalog capabilities, extended by fulfillment', async () => {
    const profile = (await c.gw.app.inject({ method: 'GET', url: '/.well-known/proto' })).json();
    expect(Object.keys(profile.proto.capabilities)).toEqual(
      expect.arrayContaining(['dev.proto.shopping.catalog.search', 'dev.proto.shopping.catalog.lookup']),
    );
    expect(profile.proto.capabilities['dev.proto.shopping.fulfillment'][0].extends).toEqual(
      expect.arrayContaining(['dev.proto.shopping.catalog.search', 'dev.proto.shopping.catalog.lookup']),
    );
  });
});

describe('cursors across replicas', () => {
  const secret = 'a shared gateway secret of enough length';

  it("replicas sharing GATEWAY_SECRET continue each other's pages; another secret refuses them", async () => {
    const [a, b, stranger] = await Promise.all([
      catalogGateway({ secret: GatewaySecret.from(secret) }),
      catalogGateway({ secret: GatewaySecret.from(secret) }),
      catalogGateway({ secret: GatewaySecret.from(`${secret}, but another`) }),
    ]);
    try {
      const payload = { filters: { categories: ['Bouquets'] }, pagination: { limit: 2 } };
      const first = await a.call('search_catalog', payload);
      const next = { ...payload, pagination: { limit: 2, cursor: first.body.pagination.cursor } };
      expect(productIds((await b.call('search_catalog', next)).body)).toEqual(['bouquet_tulips', 'bouquet_peonies']);
      const refused = await stranger.call('search_catalog', next);
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe('invalid_cursor');
    } finally {
      await Promise.all([a.close(), b.close(), stranger.close()]);
    }
  });
});
