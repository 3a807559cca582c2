/**
 * Every adapter setting of a tenant file may come from the environment (`{env: NAME}`), as the
 * credentials do: one flowers.yaml serves staging and production, `base_url` included. The value is
 * read as if it were written in the file (so "250" is a number), and an unset variable stops
 * start-up naming the setting and the variable.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { ConfigError } from '../../../adapters/kit/config-error.js';
import type { TenantConfig } from '../../../src/config/tenant-schema.js';
import { MemoryStore } from '../../../src/state/memory-store.js';
import { buildTenant } from '../../../src/tenancy/tenant.js';
import { FLOWERS_FILE, STORE_KEY, STORE_WEBHOOK_SECRET, startRestStore, type TestRestStore } from '../../helpers/rest-store.js';

let store: TestRestStore;
beforeAll(async () => {
  store = await startRestStore();
});
afterAll(() => store.close());

function tenantFromEnv(): TenantConfig {
  const config = parseYaml(readFileSync(resolve(FLOWERS_FILE), 'utf8')) as TenantConfig;
  const settings = config.adapter.settings as Record<string, any>;
  config.adapter.settings = {
    ...settings,
    base_url: { env: 'FLOWERS_BASE_URL' },
    storefront_url: { env: 'FLOWERS_STOREFRONT_URL' },
    pagination: { ...settings.pagination, max_limit: { env: 'FLOWERS_MAX_LIMIT' } },
    max_calls_per_run: { env: 'FLOWERS_MAX_CALLS' },
  };
  return config;
}

const secrets = { FLOWERS_STORE_API_SECRET: STORE_KEY.secret, FLOWERS_STORE_WEBHOOK_SECRET: STORE_WEBHOOK_SECRET };

describe('REST settings from the environment', () => {
  it('takes base_url and any other setting from {env} references, read as the file would read them', async () => {
    const env = {
      ...secrets,
      FLOWERS_BASE_URL: `${store.origin}/api/v2`,
      FLOWERS_STOREFRONT_URL: store.origin,
      FLOWERS_MAX_LIMIT: '2',
      FLOWERS_MAX_CALLS: '250',
    };
    const tenant = await buildTenant(
      { config: tenantFromEnv(), file: resolve(FLOWERS_FILE) },
      { env, now: Date.now, store: new MemoryStore() },
    );
    await store.control('DELETE', '/calls');
    const page = await tenant.adapter.search({ limit: 10 });
    expect(page.products).toHaveLength(2);
    expect(await store.control('GET', '/calls')).toEqual({ 'GET /api/v2/items': 1 });
    await tenant.adapter.close?.();
  });

  it('stops start-up when a variable a setting names is not set, naming the setting and the variable', async () => {
    const env = { ...secrets, FLOWERS_STOREFRONT_URL: store.origin, FLOWERS_MAX_LIMIT: '2', FLOWERS_MAX_CALLS: '250' };
    const started = buildTenant({ config: tenantFromEnv(), file: resolve(FLOWERS_FILE) }, { env, now: Date.now, store: new MemoryStore() });
    await expect(started).rejects.toBeInstanceOf(ConfigError);
    await expect(started).rejects.toThrow(/\$\.adapter\.settings\.base_url: environment variable FLOWERS_BASE_URL is not set/);
  });
});
