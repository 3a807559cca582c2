/**
 * A new platform is its folder and one line in the registry: here a throw-away definition, passed
 * in beside the build's own, is all it takes for a tenant file naming its type to start the gateway.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { defineAdapter } from '../../adapters/definition.js';
import { memory } from '../../adapters/memory/definition.js';
import { ADAPTERS } from '../../adapters/registry.js';
import { buildServer } from '../../src/server.js';
import { MemoryStore } from '../../src/state/memory-store.js';
import { loadTenants } from '../../src/tenancy/load.js';
import type { TenantDeps } from '../../src/tenancy/tenant.js';

const created: Array<{ settings: unknown; credentials: unknown }> = [];

/** A platform no build has: the demo store's data behind settings and credentials of its own. */
const throwaway = defineAdapter({
  type: 'throwaway',
  settings: Type.Object({ shop_url: Type.String({ format: 'uri' }) }, { additionalProperties: false }),
  credentials: (given: Record<string, string>) =>
    given.api_token
      ? { ok: true as const, value: { token: given.api_token } }
      : { ok: false as const, message: '$.adapter.credentials.api_token is required' },
  create: (settings, credentials, context) => {
    created.push({ settings, credentials });
    return memory.create({ data_dir: resolve('config/demo'), storefront_url: settings.shop_url }, {}, context);
  },
});

const tenantFile = (settings: string) => `id: shop
name: Throwaway Shop
base_url: https://shop.example
adapter:
  type: throwaway
  settings: ${settings}
  credentials: { api_token: { env: THROWAWAY_TOKEN } }
capabilities:
  dev.proto.shopping.catalog.search: {}
`;

let dir: string;
let app: FastifyInstance | undefined;

function configDir(text: string): string {
  dir = mkdtempSync(join(tmpdir(), 'proto-new-adapter-'));
  mkdirSync(join(dir, 'tenants'));
  writeFileSync(join(dir, 'tenants', 'shop.yaml'), text);
  return dir;
}

const deps = (adapters = [...ADAPTERS, throwaway]): TenantDeps => ({
  env: { THROWAWAY_TOKEN: 'secret-token' },
  now: Date.now,
  store: new MemoryStore(),
  adapters,
});

afterEach(async () => {
  await app?.close();
  app = undefined;
  created.length = 0;
  rmSync(dir, { recursive: true, force: true });
});

describe('a new adapter definition', () => {
  it('starts the gateway for a tenant file naming its type, with its settings and credentials checked', async () => {
    const tenants = await loadTenants(configDir(tenantFile('{ shop_url: "https://throwaway.example/" }')), deps());
    app = await buildServer({ settings: { bodyLimitBytes: 65_536, logLevel: 'silent' }, tenants, store: new MemoryStore() });
    expect(created).toEqual([{ settings: { shop_url: 'https://throwaway.example/' }, credentials: { token: 'secret-token' } }]);

    const discovery = await app.inject({ method: 'GET', url: '/.well-known/proto', headers: { host: 'shop.example' } });
    expect(discovery.statusCode).toBe(200);
    expect(JSON.stringify(discovery.json())).toContain('dev.proto.shopping.catalog.search');
  });

  it("refuses its settings by the definition's schema, naming the field", async () => {
    await expect(loadTenants(configDir(tenantFile('{ shop_url: 42 }')), deps())).rejects.toThrow(
      /shop\.yaml: \$\.adapter\.settings\.shop_url must be string/,
    );
  });

  it('is unknown to a build whose registry does not list it', async () => {
    await expect(loadTenants(configDir(tenantFile('{ shop_url: "https://throwaway.example/" }')), deps([...ADAPTERS]))).rejects.toThrow(
      `shop.yaml: $.adapter.type must be one of ${JSON.stringify(ADAPTERS.map((d) => d.type))}`,
    );
    expect(created).toEqual([]);
  });
});
