/**
 * `npm run rest -- webhooks register --tenant X` (issue 45 item 8): registers the gateway's webhook
 * address with the store through the tenant's mapped `register_webhook` call (default POST
 * /webhooks {url, events}), as the Shopify and WooCommerce commands do; the address honours the
 * tenant's path prefix, and running it again keeps the one registration.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { run } from '../../../scripts/rest.js';
import { STORE_KEY, STORE_WEBHOOK_SECRET, startRestStore, type TestRestStore } from '../../helpers/rest-store.js';

const ENV = { FLOWERS_STORE_API_SECRET: STORE_KEY.secret, FLOWERS_STORE_WEBHOOK_SECRET: STORE_WEBHOOK_SECRET };

let store: TestRestStore;
let dir: string;
beforeAll(async () => {
  store = await startRestStore();
  dir = mkdtempSync(join(tmpdir(), 'rest-webhooks-'));
  cpSync(join(process.cwd(), 'examples/rest-tenants'), dir, { recursive: true });
  cpSync(join(process.cwd(), 'config/rest-demo/tenants/flowers.yaml'), join(dir, 'tenants/flowers.yaml'));
  for (const name of ['flowers-cart', 'flowers']) {
    const file = join(dir, `tenants/${name}.yaml`);
    const doc = parseDocument(readFileSync(file, 'utf8'));
    doc.setIn(['adapter', 'settings', 'base_url'], `${store.origin}/api/v2`);
    doc.setIn(['adapter', 'settings', 'storefront_url'], store.origin);
    doc.set('base_url', 'https://gateway.example');
    if (name === 'flowers') doc.set('path_prefix', '/flowers');
    writeFileSync(file, doc.toString());
  }
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await store.close();
});

async function register(tenant: string) {
  const out: string[] = [];
  const code = await run(
    ['webhooks', 'register', '--tenant', tenant],
    { out: (l) => out.push(l), err: (l) => out.push(l) },
    {
      ...ENV,
      CONFIG_DIR: dir,
    },
  );
  return { code, out: out.join('\n') };
}

describe('npm run rest -- webhooks register', () => {
  it("registers base_url + the tenant's path prefix + /webhooks/backend with the store, once however often it runs", async () => {
    const first = await register('flowers-cart');
    expect(first.out).toContain('https://gateway.example/flowers-cart/webhooks/backend');
    expect(first.code).toBe(0);
    expect(first.out).not.toContain(STORE_KEY.secret);
    await register('flowers-cart');
    const listed = await store.call('GET', '/webhooks');
    expect(listed.body.data).toEqual([
      {
        webhook_id: expect.any(String),
        url: 'https://gateway.example/flowers-cart/webhooks/backend',
        events: ['order.created', 'order.updated'],
      },
    ]);
  });

  it('uses the prefix of a tenant that has one added, and refuses a tenant without webhooks settings', async () => {
    expect((await register('flowers')).out).toContain('https://gateway.example/flowers/webhooks/backend');
    const medusa = await register('medusa');
    expect(medusa.code).toBe(1);
    expect(medusa.out).toMatch(/has no adapter\.settings\.webhooks/);
  });
});
