import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../adapters/kit/config-error.js';
import { listenOrigin } from '../../src/config/base-url.js';
import { settingsFromEnv } from '../../src/config/env.js';
import { loadTenantFiles } from '../../src/config/load-tenants.js';
import { MemoryStore } from '../../src/state/memory-store.js';
import { loadTenants } from '../../src/tenancy/load.js';

function configDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'proto-config-'));
  mkdirSync(join(dir, 'tenants'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, 'tenants', name), text);
  return dir;
}

const valid = `
id: shop
name: Shop
base_url: https://shop.example
adapter:
  type: memory
  settings: { data_dir: ${JSON.stringify(join(process.cwd(), 'config/demo'))}, storefront_url: https://shop.example/store }
capabilities: { dev.proto.shopping.cart: {} }
`;

/** The valid file with `adapter.credentials` set to a YAML value. */
const withCredentials = (yaml: string) =>
  valid.replace('storefront_url: https://shop.example/store }\n', `storefront_url: https://shop.example/store }\n  credentials: ${yaml}\n`);

const loadOptions = () => ({ env: {}, now: Date.now, store: new MemoryStore() });

function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  return 'no error';
}

describe('tenant files', () => {
  it('load when valid, YAML or JSON', () => {
    expect(loadTenantFiles(configDir({ 'shop.yaml': valid }))[0]!.config.id).toBe('shop');
    const json = { id: 'b', name: 'B', base_url: 'https://b.example', adapter: { type: 'memory', settings: {} }, capabilities: {} };
    expect(loadTenantFiles(configDir({ 'b.json': JSON.stringify(json) }))[0]!.config.name).toBe('B');
  });

  it('with several tenants, require each to say which hosts or path prefix route to it', () => {
    const json = {
      id: 'b',
      name: 'B',
      base_url: 'https://b.example',
      hosts: ['b.example'],
      adapter: { type: 'memory', settings: {} },
      capabilities: {},
    };
    const dir = configDir({ 'a.yaml': valid, 'b.json': JSON.stringify(json) });
    expect(errorOf(() => loadTenantFiles(dir))).toMatch(/a\.yaml: with several tenants each needs \$\.hosts or \$\.path_prefix/);
  });

  it('name the file, the JSON path and what is expected', () => {
    const dir = configDir({ 'shop.yaml': valid.replace('https://shop.example\n', 'shop.example\n') });
    expect(errorOf(() => loadTenantFiles(dir))).toMatch(/tenants\/shop\.yaml: \$\.base_url must match pattern/);

    const ttl = configDir({ 'shop.yaml': `${valid}policies: { cart_ttl_seconds: 5 }\n` });
    expect(errorOf(() => loadTenantFiles(ttl))).toMatch(/shop\.yaml: \$\.policies\.cart_ttl_seconds must be >= 60/);

    const unknown = configDir({ 'shop.yaml': `${valid}colour: blue\n` });
    expect(errorOf(() => loadTenantFiles(unknown))).toMatch(/shop\.yaml: \$\.colour is not allowed here/);

    const missing = configDir({ 'shop.yaml': valid.replace(/^name: Shop$/m, '') });
    expect(errorOf(() => loadTenantFiles(missing))).toMatch(/shop\.yaml: \$\.name is required/);
  });

  it('refuse a literal secret where a reference is expected', () => {
    const dir = configDir({ 'shop.yaml': withCredentials('{ token: shpat_literal }') });
    expect(errorOf(() => loadTenantFiles(dir))).toMatch(
      /\$\.adapter\.credentials\.token must be a reference \{env: NAME\} or \{file: PATH\}, never a literal secret/,
    );
  });

  it('refuse YAML that does not parse', () => {
    const dir = configDir({ 'shop.yaml': 'id: [unclosed' });
    expect(errorOf(() => loadTenantFiles(dir))).toMatch(/shop\.yaml: not valid YAML/);
  });

  it('refuse two tenants on one host', () => {
    const dir = configDir({
      'a.yaml': `${valid}hosts: [shop.example]\n`,
      'b.yaml': `${valid.replace('id: shop', 'id: other')}hosts: [SHOP.example]\n`,
    });
    expect(errorOf(() => loadTenantFiles(dir))).toMatch(/b\.yaml: host "SHOP\.example" is already used by .*a\.yaml/);
  });

  it('refuse an unknown capability and an extension without its parent', async () => {
    const unknown = configDir({ 'shop.yaml': valid.replace('dev.proto.shopping.cart: {}', 'dev.proto.shopping.teleport: {}') });
    await expect(loadTenants(unknown, loadOptions())).rejects.toThrow(
      /\$\.capabilities\["dev\.proto\.shopping\.teleport"\] is not a capability/,
    );
    const orphan = configDir({ 'shop.yaml': valid.replace('dev.proto.shopping.cart: {}', 'dev.proto.shopping.discount: {}') });
    await expect(loadTenants(orphan, loadOptions())).rejects.toThrow(
      /extends dev\.proto\.shopping\.cart or dev\.proto\.shopping\.checkout; enable one of them/,
    );
  });

  it('refuse adapter settings the adapter does not accept', async () => {
    const dir = configDir({ 'shop.yaml': valid.replace('storefront_url: https://shop.example/store', 'storefront: x') });
    await expect(loadTenants(dir, loadOptions())).rejects.toThrow(/shop\.yaml: \$\.adapter\.settings\.storefront_url is required/);
  });

  it('name a missing environment variable behind a credential reference', async () => {
    const dir = configDir({ 'shop.yaml': withCredentials('{ token: { env: SHOP_TOKEN } }') });
    await expect(loadTenants(dir, loadOptions())).rejects.toThrow(
      /shop\.yaml: \$\.adapter\.credentials\.token: environment variable SHOP_TOKEN is not set/,
    );
  });

  it('the shipped demo configuration loads', async () => {
    const registry = await loadTenants('config', { env: {}, now: Date.now, store: new MemoryStore(), baseUrl: 'http://127.0.0.1:8080' });
    expect(registry.tenants.map((t) => t.id)).toEqual(['demo']);
    expect(registry.route('anything.example', '/x')?.tenant.id).toBe('demo');
  });

  it('give a file without base_url the address the gateway is reached at, and resolve its relative URLs against it', async () => {
    const baseUrl = listenOrigin('127.0.0.1', 18080, false);
    const registry = await loadTenants('config', { env: {}, now: Date.now, store: new MemoryStore(), baseUrl });
    const demo = registry.tenants[0]!;
    expect(demo.baseUrl).toBe('http://127.0.0.1:18080');
    const endpoints = demo.profile.object.proto.services['dev.proto.shopping']!.map((s) => (s as { endpoint?: string }).endpoint);
    // The embedded binding has no endpoint: its page is each session's continue_url. A2A's is the agent card.
    const card = 'http://127.0.0.1:18080/.well-known/agent-card.json';
    expect(endpoints).toEqual(['http://127.0.0.1:18080', 'http://127.0.0.1:18080/mcp', card, undefined]);
    const links = ['http://127.0.0.1:18080/demo-store/policies/terms', 'http://127.0.0.1:18080/demo-store/policies/privacy'];
    expect(demo.config.links?.map((l) => l.url)).toEqual(links);
    expect(demo.adapter.storefrontUrl).toBe('http://127.0.0.1:18080/demo-store');
    const explicit = configDir({ 'shop.yaml': valid });
    const named = await loadTenants(explicit, { env: {}, now: Date.now, store: new MemoryStore(), baseUrl });
    expect(named.tenants[0]!.baseUrl).toBe('https://shop.example');
    const without = configDir({ 'shop.yaml': valid.replace('base_url: https://shop.example\n', '') });
    const unnamed = loadTenants(without, { env: {}, now: Date.now, store: new MemoryStore() });
    await expect(unnamed).rejects.toThrow(/shop\.yaml: \$\.base_url is required/);
  });

  it('reach a wildcard listener on loopback, in brackets for IPv6, over https with TLS', () => {
    expect(listenOrigin('0.0.0.0', 8080, false)).toBe('http://127.0.0.1:8080');
    expect(listenOrigin('::', 9443, true)).toBe('https://[::1]:9443');
    expect(listenOrigin('10.1.2.3', 80, false)).toBe('http://10.1.2.3:80');
  });
});

describe('gateway settings from the environment', () => {
  it('default to the embedded demo: port 8080, memory store', () => {
    expect(settingsFromEnv({})).toMatchObject({ port: 8080, host: '127.0.0.1', store: 'memory', logLevel: 'info' });
  });

  it('refuse nonsense with the variable named', () => {
    expect(() => settingsFromEnv({ PORT: 'eighty' })).toThrow(/PORT="eighty" must be an integer/);
    expect(() => settingsFromEnv({ STORE: 'mysql://x' })).toThrow(/^STORE must be "memory", a redis:\/\/ or rediss:\/\/ URL/);
    expect(() => settingsFromEnv({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL must be one of/);
    expect(() => settingsFromEnv({ BASE_URL: 'https://agents.example/' })).toThrow(/BASE_URL must be an http\(s\) URL/);
    expect(settingsFromEnv({ BASE_URL: 'https://agents.example' }).baseUrl).toBe('https://agents.example');
  });
});
