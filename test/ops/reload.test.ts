import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildServer } from '../../src/server.js';
import { MemoryStore } from '../../src/state/memory-store.js';
import { loadTenants } from '../../src/tenancy/load.js';
import { TenantReloader, watchTenantFiles } from '../../src/tenancy/reload.js';
import type { TenantDeps } from '../../src/tenancy/tenant.js';
import { counterOperations } from '../helpers/counter-operation.js';
import { platformProfile, startPlatform, type PlatformServer } from '../helpers/platform.js';
import { sample, scrape } from './helpers/prometheus.js';

const DEMO_DATA = resolve('config/demo');

function tenantYaml(name: string, extra = ''): string {
  return `id: shop
name: ${name}
base_url: https://shop.example
adapter:
  type: memory
  settings: { data_dir: ${JSON.stringify(DEMO_DATA)}, storefront_url: https://shop.example }
capabilities:
  dev.proto.shopping.cart: {}
policies:
  allow_loopback_profiles: true
${extra}`;
}

let dir: string;
let app: FastifyInstance;
let reloader: TenantReloader;
let platform: PlatformServer;
let logs: Array<Record<string, unknown>>;
let origin: string;

const writeTenant = (text: string, file = 'shop.yaml') => writeFileSync(join(dir, 'tenants', file), text);
const secondTenant = () =>
  tenantYaml('Second')
    .replace('id: shop', 'id: second')
    .replace('base_url: https://shop.example', 'base_url: https://second.example\nhosts: [second.example]');

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'proto-reload-'));
  mkdirSync(join(dir, 'tenants'));
  writeTenant(tenantYaml('Before'));
  const store = new MemoryStore();
  const deps: TenantDeps = { env: {}, now: Date.now, store };
  logs = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  app = await buildServer({
    settings: { bodyLimitBytes: 65_536, logLevel: 'info' },
    tenants: await loadTenants(dir, deps),
    store,
    operations: counterOperations,
    logStream,
  });
  reloader = new TenantReloader(app.tenants, dir, deps, app.log, {
    drainMs: 15_000,
    onReload: (outcome) => app.metrics.configReload(outcome),
  });
  origin = await app.listen({ port: 0, host: '127.0.0.1' });
  platform = await startPlatform();
});

afterEach(async () => {
  await app.close();
  await reloader.settle();
  await platform.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What the MCP server calls itself is the tenant's name: it shows which configuration answered. */
async function servedName(): Promise<string> {
  const res = await fetch(`${origin}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }),
  });
  return ((await res.json()) as { result: { serverInfo: { name: string } } }).result.serverInfo.name;
}

describe('tenant configuration reload', () => {
  it('serves the new configuration at once, finishes in-flight requests on the old one, then closes the old adapters', async () => {
    // The platform holds its profile back, so the request stays in flight during negotiation.
    const held = new Promise<ServerResponse>((resolve) => platform.serve('/slow', (res) => resolve(res)));
    const release = () =>
      void held.then((res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(platformProfile())));
    const inFlight = fetch(`${origin}/counters/c1`, { headers: { 'proto-agent': platform.agent('/slow'), 'request-id': 'in-flight' } });
    await vi.waitFor(() => expect(platform.hits('/slow')).toBe(1));

    const oldRegistry = app.tenants.registry;
    const closeOld = vi.spyOn(oldRegistry, 'close');
    writeTenant(tenantYaml('After'));
    expect(await reloader.reload()).toBe(true);
    expect(app.tenants.registry).not.toBe(oldRegistry);
    expect(await servedName()).toBe('After');
    expect(closeOld).not.toHaveBeenCalled(); // the in-flight request still holds it

    release();
    const response = await inFlight;
    expect(response.status).toBe(200);
    // Counter c1 does not exist: a business outcome.
    expect(((await response.json()) as { proto: { status: string } }).proto.status).toBe('error');
    await reloader.settle();
    expect(closeOld).toHaveBeenCalledTimes(1);
    expect(logs.some((l) => l.msg === 'tenant configuration reloaded')).toBe(true);
    expect(sample(await scrape(app), 'proto_config_reloads_total', { outcome: 'ok' })).toBe(1);
  });

  it('refuses an invalid file, logs why, and keeps serving the old configuration', async () => {
    writeTenant(tenantYaml('Broken', 'surprise: true\n'));
    expect(await reloader.reload()).toBe(false);
    expect(await servedName()).toBe('Before');
    const refused = logs.find((l) => l.msg === 'tenant configuration reload refused; the previous configuration keeps serving');
    expect(refused?.level).toBe(50);
    expect(refused?.reason).toMatch(/shop\.yaml: .*surprise/);

    writeTenant('id: shop\nname: [unclosed\n');
    expect(await reloader.reload()).toBe(false);
    expect(await servedName()).toBe('Before');
    expect(sample(await scrape(app), 'proto_config_reloads_total', { outcome: 'failed' })).toBe(2);
  });

  it('refuses a configuration whose adapter cannot be built', async () => {
    writeTenant(secondTenant(), 'second.yaml');
    writeTenant(
      tenantYaml('Missing data').replace(JSON.stringify(DEMO_DATA), JSON.stringify(join(dir, 'nowhere'))) + 'hosts: [shop.example]\n',
    );
    expect(await reloader.reload()).toBe(false);
    expect(await servedName()).toBe('Before');
    expect(logs.find((l) => l.level === 50)?.reason).toMatch(/data_dir|nowhere/);
  });

  it("lists the reloaded configuration's tools over MCP, not the ones listed before", async () => {
    const toolNames = async () => {
      const res = await fetch(`${origin}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      return ((await res.json()) as { result: { tools: Array<{ name: string }> } }).result.tools.map((t) => t.name);
    };
    expect(await toolNames()).toEqual(['bump_counter', 'read_counter']);
    // The counter tools belong to the cart capability: without it, the tenant offers none of them.
    writeTenant(tenantYaml('After').replace('dev.proto.shopping.cart', 'dev.proto.shopping.catalog.search'));
    expect(await reloader.reload()).toBe(true);
    expect(await toolNames()).toEqual([]);
  });

  it('can add a tenant: both route after the reload', async () => {
    writeTenant(tenantYaml('Before') + 'hosts: [shop.example]\n');
    writeTenant(secondTenant(), 'second.yaml');
    expect(await reloader.reload()).toBe(true);
    expect((await app.inject({ method: 'GET', url: '/.well-known/proto', headers: { host: 'second.example' } })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/.well-known/proto', headers: { host: 'shop.example' } })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/.well-known/proto', headers: { host: 'elsewhere.example' } })).statusCode).toBe(404);
  });

  it('reloads when a tenant file changes, with CONFIG_WATCH', async () => {
    const watcher = watchTenantFiles(dir, () => void reloader.reload(), app.log, 50);
    try {
      writeTenant(tenantYaml('Watched'));
      await vi.waitFor(async () => expect(await servedName()).toBe('Watched'), { timeout: 5_000, interval: 50 });
    } finally {
      watcher.close();
    }
  });
});
