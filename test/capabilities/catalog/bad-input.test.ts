import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogGateway, type CatalogGateway, type CatalogOperation } from './catalog-gateway.js';

let c: CatalogGateway;
beforeAll(async () => {
  c = await catalogGateway();
});
afterAll(() => c.close());

describe('bad input gets a clear 400 naming what is wrong', () => {
  it.each([
    ['search_catalog', { query: 42 }, '$.query must be string'],
    ['search_catalog', { query: 'x'.repeat(1001) }, '$.query must NOT have more than 1000 characters'],
    ['search_catalog', { query: 'x', pagination: { limit: -1 } }, '$.pagination.limit must be >= 1'],
    ['search_catalog', { query: 'x', pagination: { limit: 0 } }, '$.pagination.limit must be >= 1'],
    ['search_catalog', { query: 'x', pagination: { limit: 2.5 } }, '$.pagination.limit must be integer'],
    ['search_catalog', { query: 'x', pagination: { page: 2 } }, '$.pagination.page is not allowed here'],
    ['search_catalog', { query: 'x', pagination: { cursor: '' } }, '$.pagination.cursor must NOT have fewer than 1 characters'],
    ['search_catalog', { filters: 'roses' }, '$.filters must be object'],
    ['search_catalog', { filters: { categories: 'Roses' } }, '$.filters.categories must be array'],
    ['search_catalog', { filters: { categories: [] } }, '$.filters.categories must NOT have fewer than 1 items'],
    ['search_catalog', { filters: { price: { min: -100 } } }, '$.filters.price.min must be >= 0'],
    ['search_catalog', { filters: { price: { max: '20.00' } } }, '$.filters.price.max must be integer'],
    ['search_catalog', { filters: { price: {} } }, '$.filters.price must NOT have fewer than 1 properties'],
    ['search_catalog', { filters: { price: { below: 100 } } }, '$.filters.price.below is not allowed here'],
    ['search_catalog', { filters: { fulfills_to: { city: 'Chicago' } } }, '$.filters.fulfills_to.city is not allowed here'],
    ['search_catalog', { filters: { methods: 'pickup' } }, '$.filters.methods must be array'],
    ['search_catalog', { query: 'x', context: { currency: 'dollars' } }, '$.context.currency must match pattern "^[A-Z]{3}$"'],
    ['lookup_catalog', {}, '$.ids is required'],
    ['lookup_catalog', { ids: [] }, '$.ids must NOT have fewer than 1 items'],
    ['lookup_catalog', { ids: 'florist_tee' }, '$.ids must be array'],
    ['lookup_catalog', { ids: [7] }, '$.ids[0] must be string'],
    ['lookup_catalog', { ids: [''] }, '$.ids[0] must NOT have fewer than 1 characters'],
    ['lookup_catalog', { ids: ['ok', 'x'.repeat(201)] }, '$.ids[1] must NOT have more than 200 characters'],
    ['get_product', {}, '$.id is required'],
    ['get_product', { id: ['florist_tee'] }, '$.id must be string'],
    ['get_product', { id: 'florist_tee', selected: [{ name: 'Size' }] }, '$.selected[0].label is required'],
    ['get_product', { id: 'florist_tee', selected: { Size: 'M' } }, '$.selected must be array'],
    ['get_product', { id: 'florist_tee', preferences: 'Size' }, '$.preferences must be array'],
  ] as Array<[CatalogOperation, unknown, string]>)('%s %j', async (op, payload, content) => {
    const res = await c.call(op, payload);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'invalid_request', content });
  });

  it('a body that is not an object', async () => {
    for (const body of ['"roses"', '[1,2]', '42', 'null']) {
      const res = await c.gw.app.inject({ method: 'POST', url: '/catalog/lookup', headers: c.gw.headers(), payload: body });
      expect(res.statusCode, body).toBe(400);
    }
  });
});

describe('no input makes the server answer 5xx', () => {
  // Mostly well-formed requests with awkward values, so generated bodies reach deep into the
  // handlers (filters, currencies, locations, selections, cursors), plus arbitrary JSON.
  const junk = fc.jsonValue({ maxDepth: 3 });
  const maybe = <T>(arb: fc.Arbitrary<T>) => fc.oneof({ arbitrary: arb, weight: 12 }, { arbitrary: junk, weight: 1 });
  const filters = fc.record(
    {
      categories: maybe(
        fc.array(fc.constantFrom('Bouquets', 'plants', 'Nope', 'Home & Garden > Plants > Flowers'), { minLength: 1, maxLength: 3 }),
      ),
      price: maybe(fc.record({ min: fc.integer({ min: 0, max: 6000 }), max: fc.integer({ min: 0, max: 6000 }) }, { requiredKeys: [] })),
      fulfills_to: maybe(
        fc.record(
          {
            address_country: fc.constantFrom('US', 'ca', 'FRA', 'Canada', 'US', 'Narnia'),
            address_region: fc.constantFrom('IL', 'US-IL', 'ON'),
            postal_code: fc.string({ minLength: 1, maxLength: 8 }),
            location: fc.constantFrom('loop', 'evanston', 'loop', 'mars'),
          },
          { requiredKeys: [] },
        ),
      ),
      methods: maybe(fc.array(fc.constantFrom('shipping', 'pickup', 'drone'), { minLength: 1, maxLength: 3 })),
      available: maybe(fc.boolean()),
    },
    { requiredKeys: [] },
  );
  const context = fc.record(
    { currency: fc.constantFrom('USD', 'EUR', 'JPY', 'KWD'), address_country: fc.constantFrom('US', 'FR', 'Atlantis') },
    { requiredKeys: [] },
  );
  const common = { filters: maybe(filters), context: maybe(context) };
  const requests = {
    search_catalog: fc.record(
      {
        query: maybe(fc.oneof(fc.constantFrom('rose', 'tee white', 'NOËL', '', '  '), fc.string({ maxLength: 20 }))),
        pagination: maybe(
          fc.oneof(
            { arbitrary: fc.record({ limit: fc.integer({ min: -1, max: 500 }) }), weight: 4 },
            {
              arbitrary: fc.record({ cursor: fc.oneof(fc.constant('e30.AAAA'), fc.base64String({ minLength: 1, maxLength: 40 })) }),
              weight: 1,
            },
          ),
        ),
        ...common,
      },
      { requiredKeys: [] },
    ),
    lookup_catalog: fc.record(
      {
        ids: maybe(
          fc.array(fc.constantFrom('florist_tee', 'florist_tee_l_white', 'TEE-S-GRN', 'white-orchid', 'ebook_flower_care', 'nope'), {
            minLength: 1,
            maxLength: 12,
          }),
        ),
        ...common,
      },
      { requiredKeys: ['ids'] },
    ),
    get_product: fc.record(
      {
        id: maybe(fc.constantFrom('florist_tee', 'florist_tee_l_white', 'bouquet_roses', 'florist-tee', 'nope')),
        selected: maybe(
          fc.array(
            fc.record({
              name: fc.constantFrom('Size', 'Color', 'size', 'Fabric'),
              label: fc.constantFrom('S', 'M', 'L', 'White', 'green', 'XXL'),
            }),
            { maxLength: 4 },
          ),
        ),
        preferences: maybe(fc.array(fc.constantFrom('Size', 'Color', 'Fabric'), { maxLength: 3 })),
        ...common,
      },
      { requiredKeys: ['id'] },
    ),
  };

  /**
   * The bodies as one JSON-RPC batch of tools/calls: one HTTP request, so the MCP SDK's per-request
   * set-up is paid once per batch; every call still runs on its own and answers for itself.
   */
  async function mcpBatch(op: CatalogOperation, bodies: unknown[]): Promise<any[]> {
    const calls = bodies.map((body, id) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: op, arguments: { meta: c.gw.meta(), catalog: body } },
    }));
    const post = async (payload: unknown) => {
      const res = await c.gw.app.inject({
        method: 'POST',
        url: '/mcp',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        payload: JSON.stringify(payload),
      });
      expect(res.statusCode).toBeLessThan(500);
      return [res.json()].flat();
    };
    const answers = await post(calls);
    // A body the JSON parser refuses whole (a "__proto__" key anywhere in it) gets one error with id
    // null: then each call goes alone, and only the one carrying such a key may be refused that way.
    if (answers.length === 1 && answers[0].id === null && answers[0].error) {
      const alone = [];
      for (const call of calls) {
        const [answer] = await post(call);
        expect(answer.id === call.id || (answer.id === null && JSON.stringify(call).includes('"__proto__"'))).toBe(true);
        alone.push(answer);
      }
      return alone;
    }
    expect(answers.map((a) => a.id).sort((a, b) => a - b)).toEqual(calls.map((call) => call.id));
    return answers;
  }

  it.each(['search_catalog', 'lookup_catalog', 'get_product'] as const)(
    '%s answers any payload with 200 or 400, on both transports',
    async (op) => {
      // About 150 payloads per operation, in batches of up to 20 (MAX_BATCH).
      const payload = fc.oneof({ arbitrary: requests[op], weight: 12 }, { arbitrary: junk, weight: 1 });
      await fc.assert(
        fc.asyncProperty(fc.array(payload, { minLength: 1, maxLength: 20 }), async (bodies) => {
          for (const body of bodies) expect([200, 400]).toContain((await c.rest(op, body)).status);
          for (const answer of await mcpBatch(op, bodies)) expect(answer.error?.data?.http_status ?? 200).toBeLessThan(500);
        }),
        { numRuns: 15 },
      );
    },
  );
});
