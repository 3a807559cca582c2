import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../../scripts/shopify.js';
import { startShopifySimulator, type ShopifySimulator } from '../../../simulators/shopify/server.js';

let sim: ShopifySimulator;
let configDir: string;
beforeAll(async () => {
  sim = await startShopifySimulator({ shopDomain: 'petal-command.myshopify.com' });
  configDir = mkdtempSync(join(tmpdir(), 'shopify-command-'));
  mkdirSync(join(configDir, 'tenants'));
  writeFileSync(
    join(configDir, 'tenants', 'flowers.yaml'),
    `id: flowers
name: Flowers
base_url: https://flowers.example
adapter:
  type: shopify
  settings: { shop: petal-command.myshopify.com, api_origin: "${sim.url}" }
  credentials:
    storefront_token: { env: SF_TOKEN }
    client_id: { env: CLIENT_ID }
    client_secret: { file: ../client-secret.txt }
capabilities:
  dev.proto.shopping.catalog.search: {}
`,
  );
  writeFileSync(join(configDir, 'client-secret.txt'), `${sim.credentials.clientSecret}\n`);
});
afterAll(async () => {
  await sim.close();
  rmSync(configDir, { recursive: true, force: true });
});

const env = () => ({ CONFIG_DIR: configDir, SF_TOKEN: sim.credentials.storefrontToken, CLIENT_ID: sim.credentials.clientId });

async function shopify(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(args, { out: (l) => out.push(l), err: (l) => err.push(l) }, env());
  return { code, out, err };
}

describe('npm run shopify -- webhooks', () => {
  it('registers the order topics for the tenant once, with credentials from references', async () => {
    const first = await shopify('webhooks', 'register', '--tenant', 'flowers');
    expect(first.code).toBe(0);
    expect(first.out).toEqual(
      ['ORDERS_CREATE', 'ORDERS_UPDATED', 'ORDERS_CANCELLED', 'FULFILLMENTS_CREATE', 'FULFILLMENTS_UPDATE', 'REFUNDS_CREATE'].map(
        (t) => `created  ${t}`,
      ),
    );
    const again = await shopify('webhooks', 'register', '--tenant', 'flowers');
    expect(again.out.every((l) => l.startsWith('exists'))).toBe(true);
    expect(again.err.at(-1)).toBe('0 created, 6 already there');
    expect(sim.webhooks.subscriptions.map((s) => s.uri)).toEqual(Array(6).fill('https://flowers.example/webhooks/backend'));
    const listed = await shopify('webhooks', 'list', '--tenant', 'flowers');
    expect(listed.out[0]).toBe('ORDERS_CREATE  https://flowers.example/webhooks/backend  (this gateway)');
  });

  it('says what is wrong with the command or the tenant', async () => {
    expect((await shopify('webhooks', 'register')).code).toBe(2);
    await expect(shopify('webhooks', 'register', '--tenant', 'nobody')).rejects.toThrow(/no tenant "nobody"/);
  });
});
