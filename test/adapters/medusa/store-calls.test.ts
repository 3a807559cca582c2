/**
 * Medusa calls per protocol operation, counted exactly against the real Medusa server: the same
 * scenario as `npm run bench:adapters`, each request's calls seen by async context in the
 * gateway's process (bench/adapters/store-probe.ts). bench/results.md argues each minimum from
 * Medusa's Store API: every cart mutation answers the cart (`fields` widens it), so nothing is
 * read back after a change.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveAgentProfile, type AgentProfile } from '../../../bench/agent-profile.js';
import { inProcess } from '../../../bench/adapters/gateway.js';
import { namedCalls, sequential } from '../../../bench/adapters/measure.js';
import { GatewayClient, scenario } from '../../../bench/adapters/scenario.js';
import { StoreProbe } from '../../../bench/adapters/store-probe.js';
import { medusaTarget } from '../../../bench/adapters/targets.js';
import { medusaStore } from '../../helpers/medusa-store.js';

const store = medusaStore();
let agent: AgentProfile;
let probe: StoreProbe;
let dir: string;
beforeAll(async () => {
  agent = await serveAgentProfile();
  probe = new StoreProbe();
  dir = mkdtempSync(join(tmpdir(), 'medusa-calls-'));
});
afterAll(async () => {
  probe.close();
  await agent.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Ids vary per run: named by their place. */
const pattern = (labels: string[]) =>
  labels.map((l) => l.replace(/\/(carts|line-items|payment-collections|orders|payments)\/[^/]+/g, '/$1/:id'));

if (!store) describe.skip('Medusa calls per operation (examples/medusa-store is not installed)', () => it('needs Medusa', () => {}));
else
  describe('Medusa calls per operation', () => {
    it('makes each operation with exactly the calls Medusa needs', async () => {
      const keyFile = join(dir, 'secret-key');
      writeFileSync(keyFile, store.seed.secretKey, { mode: 0o600 });
      const target = medusaTarget(store.url, store.seed, keyFile);
      const gateway = await inProcess(target.tenantYaml, target.env, probe);
      try {
        const client = new GatewayClient(gateway.origin, agent.header);
        const operations = scenario(await target.scenario(client));
        for (const op of operations) await sequential(client, gateway, op, 1);
        const counted: Record<string, string[]> = {};
        for (const op of operations) counted[op.name] = pattern(await namedCalls(client, gateway, op, target));
        // Before issue 32: create_cart 8, create_checkout 6, update 5, get 4, complete 15.
        expect(counted).toEqual({
          search_catalog: ['GET /store/products'],
          'search_catalog (cached)': [],
          create_cart: ['POST /store/carts'],
          create_checkout: ['POST /store/carts', 'GET /store/shipping-options'],
          'update_checkout (select a rate)': ['GET /store/carts/:id', 'POST /store/carts/:id/shipping-methods'],
          get_checkout: ['GET /store/carts/:id'],
          'complete_checkout (gateway_charged)': [
            'GET /store/carts/:id',
            'POST /store/payment-collections',
            'POST /store/payment-collections/:id/payment-sessions',
            'POST /store/carts/:id/complete',
            'POST /admin/payments/:id/capture',
          ],
        });
      } finally {
        await gateway.close();
      }
    }, 180_000);
  });
