/**
 * How a REST tenant's store ties orders to checkouts (`capabilities.order_links`): the flowers
 * tenant file declares both; a file whose store would keep neither stops start-up naming the file
 * and the setting, rather than losing every order placed on the store's pages.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../adapters/kit/config-error.js';
import { MemoryStore } from '../../../src/state/memory-store.js';
import { loadTenants } from '../../../src/tenancy/load.js';

const ENV = { FLOWERS_STORE_API_SECRET: 'api-secret-123456', FLOWERS_STORE_WEBHOOK_SECRET: 'hook-secret-123456' };

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rest-order-links-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function loadFlowers(edit: (text: string) => string = (t) => t) {
  const tenants = join(dir, 'tenants');
  rmSync(tenants, { recursive: true, force: true });
  cpSync(join(process.cwd(), 'config/rest-demo/tenants'), tenants, { recursive: true });
  const file = join(tenants, 'flowers.yaml');
  writeFileSync(file, edit(readFileSync(file, 'utf8')));
  const store = new MemoryStore();
  try {
    return await loadTenants(dir, { env: ENV, now: Date.now, store });
  } finally {
    await store.close();
  }
}

describe('REST order links', () => {
  it("declares what the tenant file says: the gateway's reference and the store's own", async () => {
    const registry = await loadFlowers();
    expect(registry.tenants[0]!.adapter.capabilities.orderLinks).toEqual(['reference', 'store_reference']);
    await registry.close();
  });

  it('stops start-up when the store would keep neither, naming the file and the setting', async () => {
    const failure = loadFlowers((t) => t.replace('order_links: [reference, store_reference]', 'order_links: []'));
    await expect(failure).rejects.toBeInstanceOf(ConfigError);
    await expect(failure).rejects.toThrow(
      /flowers\.yaml: \$\.adapter\.settings\.capabilities\.order_links is empty: the store would keep neither the gateway's reference/,
    );
  });
});
