import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { describeWithRedis, REDIS_URL } from '../helpers/redis.js';
import { buildGateway, startGateway, type GatewayProcess } from './helpers/gateway-process.js';

let build: Awaited<ReturnType<typeof buildGateway>>;
beforeAll(async () => {
  build = await buildGateway();
}, 180_000);
afterAll(() => build?.remove());

let gateway: GatewayProcess | undefined;
afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
});

/** Resolves 'refused' or 'accepted' for one new TCP connection. */
function tryConnect(port: number): Promise<'refused' | 'accepted'> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve('accepted');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNREFUSED' ? resolve('refused') : reject(error)));
  });
}

/**
 * A request the gateway has started on (its headers are in: the server answered
 * `100 Continue`) whose body the test sends later: in flight for as long as the test wants.
 */
async function startRequest(port: number, path: string, body: string) {
  const req = request({
    host: '127.0.0.1',
    port,
    path,
    method: 'POST',
    agent: false,
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), expect: '100-continue' },
  });
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk)).on('end', () => resolve({ status: res.statusCode!, body: text }));
    });
    req.on('error', reject);
  });
  response.catch(() => undefined); // a failure surfaces where the test awaits finish()
  await new Promise<void>((resolve) => {
    req.once('continue', resolve);
    req.flushHeaders();
  });
  return { finish: () => (req.end(body), response) };
}

describeWithRedis('graceful shutdown of the gateway process', () => {
  it('on SIGTERM refuses new connections, finishes the in-flight request, closes Redis and exits 0', { timeout: 60_000 }, async () => {
    gateway = await startGateway(build.dir, { CONFIG_DIR: resolve('config'), STORE: REDIS_URL, SHUTDOWN_GRACE_MS: '20000' });
    const inFlight = await startRequest(gateway.port, '/mcp', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));

    gateway.child.kill('SIGTERM');
    await gateway.logged('shutting down: no new connections, finishing in-flight requests');
    await vi.waitFor(async () => expect(await tryConnect(gateway!.port)).toBe('refused'), { timeout: 10_000, interval: 20 });

    const response = await inFlight.finish();
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ jsonrpc: '2.0', id: 1, result: { tools: expect.any(Array) } });
    expect(await gateway.exited).toBe(0);
    expect(gateway.logs.at(-1)?.msg).toBe('stopped');
    expect(gateway.logs.some((l) => l.level === 50)).toBe(false);
  });
});

describe('SIGHUP to the gateway process', () => {
  let configDir: string;
  beforeAll(() => {
    configDir = mkdtempSync(join(tmpdir(), 'proto-config-'));
    cpSync(resolve('config'), configDir, { recursive: true });
  });
  afterAll(() => rmSync(configDir, { recursive: true, force: true }));

  async function servedName(origin: string): Promise<string> {
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

  it('reloads the tenant files, and keeps the running configuration when the new one is invalid', { timeout: 60_000 }, async () => {
    const file = join(configDir, 'tenants', 'demo.yaml');
    const original = readFileSync(file, 'utf8');
    gateway = await startGateway(build.dir, { CONFIG_DIR: configDir });
    expect(await servedName(gateway.origin)).toBe('Demo Flower Shop');

    writeFileSync(file, original.replace(/^name: .*$/m, 'name: Renamed Flower Shop'));
    gateway.child.kill('SIGHUP');
    await gateway.logged('tenant configuration reloaded');
    expect(await servedName(gateway.origin)).toBe('Renamed Flower Shop');

    writeFileSync(file, `${original}\nnot_a_field: 1\n`);
    gateway.child.kill('SIGHUP');
    const refused = await gateway.logged('tenant configuration reload refused; the previous configuration keeps serving');
    expect(refused.reason).toMatch(/demo\.yaml: .*not_a_field/);
    expect(await servedName(gateway.origin)).toBe('Renamed Flower Shop');

    gateway.child.kill('SIGTERM');
    expect(await gateway.exited).toBe(0);
  });
});

describe('the admin listener of the gateway process', () => {
  it('serves metrics on ADMIN_HOST:ADMIN_PORT only, never on the tenants port', { timeout: 60_000 }, async () => {
    gateway = await startGateway(build.dir, { CONFIG_DIR: resolve('config') });
    const line = await vi.waitFor(
      () => {
        const found = gateway!.logs.find((l) => typeof l.metrics === 'string');
        if (!found) throw new Error('no admin listener line yet');
        return found;
      },
      { timeout: 15_000, interval: 20 },
    );
    const metrics = line.metrics as string;
    expect(metrics).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect(new URL(metrics).port).not.toBe(String(gateway.port));
    const scraped = await fetch(metrics);
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain('# TYPE proto_requests_total counter');
    for (const path of ['/metrics', '/%6detrics', '/%2e/metrics']) {
      expect((await fetch(`${gateway.origin}${path}`)).status, path).toBe(404);
    }
  });
});
