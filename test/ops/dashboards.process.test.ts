/**
 * The dashboards and alerts of docker/ against a real gateway: the gateway runs as operators run
 * it (two tenants: the demo shop, served, and a REST store that is down), serves traffic (a
 * completed checkout whose order webhook reaches the platform, rate-limited calls, a forged store
 * webhook, calls to the store that is down), and Debian's `prometheus` scrapes its operator
 * listener. Every PromQL expression of the Grafana dashboard and of the alert rules must then
 * return data: no panel or alert on a metric that does not exist. An alert's expression is
 * evaluated without its threshold (the traffic need not make every alert fire); that the
 * expressions and thresholds are valid is promtool's check.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse, stringify } from 'yaml';
import { ALL_CAPABILITIES } from '../helpers/platform.js';
import { freePorts } from '../helpers/redis-server.js';
import { buildGateway, startGateway, type GatewayProcess } from './helpers/gateway-process.js';

const run = promisify(execFile);
const PROMETHEUS = process.env.PROMETHEUS_PATH || '/usr/bin/prometheus';
const PROMTOOL = process.env.PROMTOOL_PATH || '/usr/bin/promtool';

interface Panel {
  id: number;
  title: string;
  type: string;
  datasource: { type: string; uid: string };
  gridPos: { h: number; w: number; x: number; y: number };
  targets: Array<{ refId: string; expr: string; datasource: { uid: string } }>;
}
const dashboard = JSON.parse(readFileSync('docker/grafana/dashboards/gateway.json', 'utf8')) as {
  uid: string;
  title: string;
  panels: Panel[];
};
const rules = parse(readFileSync('docker/prometheus/alerts.yml', 'utf8')) as {
  groups: Array<{ rules: Array<{ alert: string; expr: string }> }>;
};
const alerts = rules.groups.flatMap((group) => group.rules);
/** An alert's expression without its final comparison with a number. */
const withoutThreshold = (expr: string) => expr.replace(/\s*(>=|<=|==|!=|>|<)\s*[\d.]+\s*$/, '');

/** The demo shop (on 127.0.0.1, a tight per-caller limit) and a REST store that does not answer (on localhost). */
function configDir(closedPort: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'dashboards-'));
  mkdirSync(join(dir, 'tenants'));
  const demo = parse(readFileSync('config/tenants/demo.yaml', 'utf8'));
  demo.adapter.settings.data_dir = resolve('config/demo');
  demo.simulation.secret = { file: join(dir, 'simulation-secret') };
  demo.hosts = ['127.0.0.1'];
  demo.policies.rate_limits = { per_caller: { max: 8, window_seconds: 60 } };
  writeFileSync(join(dir, 'tenants/demo.yaml'), stringify(demo));
  const down = parse(readFileSync('config/rest-demo/tenants/flowers.yaml', 'utf8'));
  Object.assign(down, { id: 'down', name: 'A store that is down', hosts: ['localhost'] });
  delete down.base_url;
  down.adapter.settings.base_url = `http://127.0.0.1:${closedPort}/api/v2`;
  down.adapter.settings.storefront_url = `http://127.0.0.1:${closedPort}`;
  writeFileSync(join(dir, 'tenants/down.yaml'), stringify(down));
  return dir;
}

async function startPlatform(): Promise<{ origin: string; deliveries: string[]; server: Server }> {
  const platform = { origin: '', deliveries: [] as string[], server: createServer() };
  platform.server.on('request', (req, res) => {
    if (req.url === '/.well-known/proto') {
      const capabilities = Object.fromEntries(ALL_CAPABILITIES.map((name) => [name, [{ version: '2026-04-08' }]]));
      capabilities['dev.proto.shopping.order'] = [{ version: '2026-04-08', config: { webhook_url: `${platform.origin}/hooks` } } as never];
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ proto: { version: '2026-04-08', capabilities } }));
      return;
    }
    platform.deliveries.push(String(req.headers['webhook-id']));
    req.resume();
    res.writeHead(200).end();
  });
  await new Promise<void>((done) => platform.server.listen(0, '127.0.0.1', done));
  platform.origin = `http://127.0.0.1:${(platform.server.address() as AddressInfo).port}`;
  return platform;
}

let build: Awaited<ReturnType<typeof buildGateway>>;
let platform: Awaited<ReturnType<typeof startPlatform>>;
let gateway: GatewayProcess;
let prometheus: ChildProcess | undefined;
let promOrigin: string;
let dir: string;

/** A call to the gateway as `host` (the tenant it routes to). */
function call(host: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((done, fail) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: gateway.port,
        method,
        path,
        headers: {
          host: `${host}:${gateway.port}`,
          'proto-agent': `profile="${platform.origin}/.well-known/proto"`,
          'request-id': randomUUID(),
          ...(method !== 'GET' && { 'idempotency-key': randomUUID(), 'content-type': 'application/json' }),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => done({ status: res.statusCode ?? 0, json: text.startsWith('{') ? JSON.parse(text) : text }));
      },
    );
    req.on('error', fail);
    req.end(payload);
  });
}

async function serveTraffic(): Promise<void> {
  const checkout = await call('127.0.0.1', 'POST', '/checkout-sessions', {
    line_items: [{ item: { id: 'ebook_flower_care' }, quantity: 1 }],
    buyer: { email: 'ann@example.com' },
    context: { address_country: 'US', address_region: 'IL' },
  });
  expect(checkout.json.status, JSON.stringify(checkout.json)).toBe('ready_for_complete');
  const instrument = {
    id: 'instr_1',
    handler_id: 'sandbox',
    type: 'card',
    credential: { type: 'PAYMENT_GATEWAY', token: 'success_token' },
  };
  const done = await call('127.0.0.1', 'POST', `/checkout-sessions/${checkout.json.id}/complete`, {
    payment: { instruments: [instrument] },
  });
  expect(done.json.status).toBe('completed');
  await vi.waitFor(() => expect(platform.deliveries).toHaveLength(1), { timeout: 15_000 });
  const statuses: number[] = [];
  for (let i = 0; i < 10; i++)
    statuses.push((await call('127.0.0.1', 'POST', '/carts', { line_items: [{ item: { id: 'pot_ceramic' }, quantity: 1 }] })).status);
  expect(statuses).toContain(429);
  expect((await call('127.0.0.1', 'POST', '/webhooks/backend', { forged: true })).status).toBeGreaterThanOrEqual(400);
  await callTheStoreThatIsDown();
}

async function callTheStoreThatIsDown(): Promise<void> {
  for (let i = 0; i < 4; i++)
    expect((await call('localhost', 'POST', '/carts', { line_items: [{ item: { id: 'x' }, quantity: 1 }] })).status).toBe(503);
}

async function query(expr: string): Promise<unknown[]> {
  const res = await fetch(`${promOrigin}/api/v1/query?query=${encodeURIComponent(expr)}`);
  const body = (await res.json()) as { status: string; error?: string; data?: { result: unknown[] } };
  if (body.status !== 'success') throw new Error(`${expr}: ${body.error}`);
  return body.data!.result;
}

beforeAll(async () => {
  const [closed, promPort] = (await freePorts(2)) as [number, number];
  dir = configDir(closed);
  [build, platform] = await Promise.all([buildGateway(), startPlatform()]);
  gateway = await startGateway(build.dir, {
    CONFIG_DIR: dir,
    GATEWAY_SECRET: randomUUID() + randomUUID(),
    FLOWERS_STORE_API_SECRET: 'api-secret-of-the-down-store',
    FLOWERS_STORE_WEBHOOK_SECRET: 'webhook-secret-of-the-down-store',
  });
  const metricsUrl = await vi.waitFor(() => String(gateway.logs.find((l) => typeof l.metrics === 'string')!.metrics), { timeout: 15_000 });
  await serveTraffic();
  writeFileSync(
    join(dir, 'prometheus.yml'),
    stringify({
      global: { scrape_interval: '1s', evaluation_interval: '1s' },
      rule_files: [resolve('docker/prometheus/alerts.yml')],
      scrape_configs: [{ job_name: 'gateway', static_configs: [{ targets: [new URL(metricsUrl).host] }] }],
    }),
  );
  promOrigin = `http://127.0.0.1:${promPort}`;
  prometheus = spawn(
    PROMETHEUS,
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'tsdb')}`,
      `--web.listen-address=127.0.0.1:${promPort}`,
    ],
    { stdio: 'ignore' },
  );
  // Two scrapes at least, so rate() has two samples; more traffic between them.
  await vi.waitFor(async () => expect(await query('up')).toHaveLength(1), { timeout: 30_000, interval: 500 });
  await new Promise((done) => setTimeout(done, 2500));
  await callTheStoreThatIsDown(); // the demo's caller is rate-limited by now
  await new Promise((done) => setTimeout(done, 2500));
}, 180_000);

afterAll(async () => {
  prometheus?.kill('SIGKILL');
  await gateway?.stop();
  await new Promise((done) => platform?.server.close(done));
  await build?.remove();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the provisioned dashboard and the alert rules', () => {
  it('the dashboard is valid Grafana JSON over the provisioned Prometheus datasource', () => {
    expect(dashboard).toMatchObject({ uid: 'proto-gateway', title: expect.any(String) });
    const ids = dashboard.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    const provisioned = parse(readFileSync('docker/grafana/provisioning/datasources/prometheus.yml', 'utf8')).datasources[0].uid;
    for (const panel of dashboard.panels) {
      expect(panel).toMatchObject({ type: 'timeseries', title: expect.any(String), datasource: { type: 'prometheus', uid: provisioned } });
      expect(panel.gridPos.w).toBeGreaterThan(0);
      expect(panel.targets.length).toBeGreaterThan(0);
      for (const target of panel.targets) expect(target.datasource.uid).toBe(provisioned);
    }
  });

  it('promtool accepts the alert rules', async () => {
    const { stdout } = await run(PROMTOOL, ['check', 'rules', 'docker/prometheus/alerts.yml']);
    expect(stdout).toContain(`SUCCESS: ${alerts.length} rules found`);
  });

  it.each(dashboard.panels.flatMap((panel) => panel.targets.map((t) => [panel.title, t.expr] as const)))(
    'panel "%s" has data',
    async (_title, expr) => {
      await vi.waitFor(async () => expect(await query(expr)).not.toEqual([]), { timeout: 20_000, interval: 1000 });
    },
  );

  it.each(alerts.map((rule) => [rule.alert, rule.expr] as const))('alert %s has data', async (_alert, expr) => {
    await vi.waitFor(async () => expect(await query(withoutThreshold(expr))).not.toEqual([]), { timeout: 20_000, interval: 1000 });
  });

  it('the circuit of the store that is down is open, and its alert is pending or firing', async () => {
    expect(await query('proto_backend_circuit_state{tenant="down"} == 2')).toHaveLength(1);
    await vi.waitFor(async () => expect(await query('ALERTS{alertname="BackendCircuitOpen",tenant="down"}')).not.toEqual([]), {
      timeout: 20_000,
      interval: 1000,
    });
  });
});
