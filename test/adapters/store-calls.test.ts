/**
 * Store calls per protocol operation, counted exactly, for the adapters whose store runs in this
 * process (Shopify and WooCommerce simulators, the reference REST store): the same scenario as
 * `npm run bench:adapters`, each request's calls seen by async context in the gateway's process.
 * A change that adds a store call to an operation fails here; bench/results.md argues each
 * minimum from the platform's API. (Medusa: test/adapters/medusa/store-calls.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveAgentProfile, type AgentProfile } from '../../bench/agent-profile.js';
import { inProcess } from '../../bench/adapters/gateway.js';
import { namedCalls, sequential } from '../../bench/adapters/measure.js';
import { GatewayClient, scenario } from '../../bench/adapters/scenario.js';
import { StoreProbe } from '../../bench/adapters/store-probe.js';
import { restTarget, shopifyTarget, woocommerceTarget, type Target } from '../../bench/adapters/targets.js';

let agent: AgentProfile;
let probe: StoreProbe;
beforeAll(async () => {
  agent = await serveAgentProfile();
  probe = new StoreProbe();
});
afterAll(async () => {
  probe.close();
  await agent.close();
});

/** The store calls of each operation of the scenario, one request each, after one warm-up round. */
async function callsPerOperation(target: Target, agentHeader: string, storeProbe: StoreProbe): Promise<Record<string, string[]>> {
  const gateway = await inProcess(target.tenantYaml, target.env, storeProbe);
  try {
    const client = new GatewayClient(gateway.origin, agentHeader);
    const operations = scenario(await target.scenario(client));
    for (const op of operations) await sequential(client, gateway, op, 1);
    const counted: Record<string, string[]> = {};
    for (const op of operations) counted[op.name] = await namedCalls(client, gateway, op, target);
    return counted;
  } finally {
    await gateway.close();
  }
}

/** Store-side ids (carts, orders) vary per run: named by their place. */
const pattern = (labels: string[]) => labels.map((l) => l.replace(/\/(carts|orders)\/[^/]+/, '/$1/:id'));

const EXPECTED: Record<string, [() => Promise<Target>, Record<string, string[]>]> = {
  // Before issue 32: create_cart CartCreate + CartAttributes; complete_checkout (handoff) Cart ×2 + CartAttributes;
  // create_checkout and update_checkout also read CartDelivery (the carrier rates, now deferred in the mutation).
  shopify: [
    shopifyTarget,
    {
      search_catalog: ['Search'],
      'search_catalog (cached)': [],
      create_cart: ['CartCreate'],
      create_checkout: ['CartCreate'],
      'update_checkout (select a rate)': ['CartSync', 'DraftOrderCalculate'],
      get_checkout: ['CartWithCarrierRates'],
      'complete_checkout (handoff)': ['CartWithCarrierRates'],
    },
  ],
  woocommerce: [
    woocommerceTarget,
    {
      search_catalog: ['GET /wp-json/wc/v3/products'],
      'search_catalog (cached)': [],
      create_cart: ['GET /wp-json/wc/store/v1/cart', 'POST /wp-json/wc/store/v1/batch'],
      create_checkout: ['GET /wp-json/wc/store/v1/cart', 'POST /wp-json/wc/store/v1/batch'],
      'update_checkout (select a rate)': ['POST /wp-json/wc/store/v1/batch'],
      get_checkout: ['POST /wp-json/wc/store/v1/batch'],
      'complete_checkout (gateway_charged)': [
        'POST /wp-json/wc/store/v1/batch',
        'POST /wp-json/wc/v3/orders',
        'PUT /wp-json/wc/v3/orders/:id',
      ],
    },
  ],
  rest: [
    restTarget,
    {
      search_catalog: ['GET /api/v2/items'],
      'search_catalog (cached)': [],
      create_cart: ['POST /api/v2/carts', 'POST /api/v2/carts/:id/checkout-link'],
      create_checkout: ['POST /api/v2/carts'],
      'update_checkout (select a rate)': ['PUT /api/v2/carts/:id'],
      get_checkout: ['PUT /api/v2/carts/:id'],
      'complete_checkout (gateway_charged)': ['PUT /api/v2/carts/:id', 'POST /api/v2/orders'],
    },
  ],
};

describe.each(Object.keys(EXPECTED))('store calls per operation: %s', (name) => {
  it('makes each operation with exactly the calls the platform needs', async () => {
    const [start, expected] = EXPECTED[name]!;
    const target = await start();
    try {
      const counted = await callsPerOperation(target, agent.header, probe);
      expect(Object.fromEntries(Object.entries(counted).map(([op, labels]) => [op, pattern(labels)]))).toEqual(expected);
    } finally {
      await target.close();
    }
  }, 60_000);
});
