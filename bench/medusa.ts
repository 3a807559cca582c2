/**
 * `npm run bench:medusa`: the gateway in front of the real seeded Medusa store (scripts/medusa-store.ts,
 * a fresh database on DATABASE_URL's PostgreSQL, dropped afterwards), one request at a time
 * (BENCH_MEDUSA_REQUESTS per operation, default 10), the same operations as bench:woocommerce.
 * The gateway reaches Medusa through a counting proxy in the bench process, so per protocol
 * operation the bench knows the Medusa calls each request made, the time it waited on Medusa
 * (calls on its critical path, overlaps counted once) and what the gateway added on top. No
 * latency is injected: Medusa's own time is the store time.
 */
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ALL_CAPABILITIES_YAML } from '../simulators/tenant-capabilities.js';
import { freePort } from '../scripts/free-port.js';
import { startMedusaStore, type MedusaStore } from '../scripts/medusa-store.js';
import { serveAgentProfile } from './agent-profile.js';
import { machine, writeSection } from './results-file.js';

const REQUESTS = Number(process.env.BENCH_MEDUSA_REQUESTS ?? 10);
const TARGETS: Record<string, number> = { get_checkout: 1, 'search_catalog (cached)': 0 };
const CHICAGO = {
  first_name: 'Ann',
  last_name: 'Lee',
  street_address: '123 Main St',
  address_locality: 'Chicago',
  address_region: 'IL',
  address_country: 'US',
  postal_code: '60601',
};
const BUYER = { email: 'bench@example.com', first_name: 'Ann', last_name: 'Lee' };

interface Sample {
  totalMs: number;
  storeMs: number;
  calls: number;
}
interface TimedCall {
  at: number;
  end?: number;
}

const clock = () => performance.timeOrigin + performance.now();
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const p90 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.9))]!;

/** Time covered by the store calls of one request (overlapping calls count once). */
function storeTime(calls: TimedCall[], until: number): number {
  const spans = calls.map((c) => [c.at, c.end ?? until] as const).sort((a, b) => a[0] - b[0]);
  let covered = 0;
  let reach = -Infinity;
  for (const [start, end] of spans) {
    if (end <= reach) continue;
    covered += end - Math.max(start, reach);
    reach = end;
  }
  return covered;
}

/** A pass-through HTTP proxy to Medusa that records when each call started and ended. */
async function countingProxy(target: string): Promise<{ url: string; calls: TimedCall[]; close(): Promise<void> }> {
  const upstream = new URL(target);
  const calls: TimedCall[] = [];
  const server: Server = createServer((req, res) => {
    const call: TimedCall = { at: clock() };
    calls.push(call);
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.once('end', () => (call.end = clock()));
      },
    );
    forward.once('error', () => {
      call.end = clock();
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(forward);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

function tenantFile(base: string, backend: string, store: MedusaStore, secretKeyFile: string): string {
  return `id: medusa-bench
name: Petal & Stem (Medusa bench)
base_url: ${base}
adapter:
  type: medusa
  finishing: gateway_charged
  order_poll_seconds: 86400
  settings:
    backend_url: ${backend}
    storefront_url: https://petal-and-stem.example
    region_id: ${store.seed.regionId}
    sales_channel_id: ${store.seed.salesChannelId}
  credentials:
    publishable_key: { env: MEDUSA_PUBLISHABLE_KEY }
    secret_key: { file: ${secretKeyFile} }
${ALL_CAPABILITIES_YAML}payment_handlers:
  - { id: sandbox, name: dev.proto.payments.sandbox, type: sandbox, instruments: [card] }
checkout:
  required_buyer_fields: [email]
policies:
  allow_loopback_profiles: true
  backend: { timeout_ms: 30000 }
signing:
  ephemeral_key: true
`;
}

class Bench {
  constructor(
    private readonly origin: string,
    private readonly agent: string,
    private readonly calls: TimedCall[],
    private readonly lines: Array<{ item: { id: string }; quantity: number }>,
  ) {}

  async call(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<any> {
    const response = await fetch(`${this.origin}${path}`, {
      method,
      headers: {
        'content-type': 'application/json',
        'proto-agent': this.agent,
        'request-id': randomUUID(),
        'idempotency-key': randomUUID(),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const json = await response.json();
    if (response.status >= 300) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(json).slice(0, 300)}`);
    return json;
  }

  /** One measured request: total time, Medusa calls, Medusa time on its path. */
  async measure(run: () => Promise<unknown>): Promise<Sample> {
    this.calls.length = 0;
    const started = clock();
    await run();
    const ended = clock();
    const calls = [...this.calls];
    return { totalMs: ended - started, storeMs: storeTime(calls, ended), calls: calls.length };
  }

  cart(): Promise<any> {
    return this.call('POST', '/carts', { line_items: this.lines, discounts: { codes: ['10OFF'] } });
  }

  async checkout(withOption: boolean): Promise<any> {
    const created = await this.call('POST', '/checkout-sessions', {
      line_items: this.lines,
      buyer: BUYER,
      discounts: { codes: ['10OFF'] },
      fulfillment: { methods: [{ type: 'shipping', destinations: [CHICAGO] }] },
    });
    return withOption ? this.choose(created) : created;
  }

  choose(checkout: any): Promise<any> {
    const method = checkout.fulfillment.methods[0];
    return this.call('PUT', `/checkout-sessions/${checkout.id}`, {
      line_items: checkout.line_items.map((l: any) => ({ id: l.id, item: { id: l.item.id }, quantity: l.quantity })),
      buyer: BUYER,
      discounts: { codes: ['10OFF'] },
      fulfillment: {
        methods: [
          {
            id: method.id,
            type: 'shipping',
            destinations: method.destinations,
            selected_destination_id: method.selected_destination_id,
            groups: method.groups.map((g: any) => ({ id: g.id, selected_option_id: g.options[0].id })),
          },
        ],
      },
    });
  }
}

async function startGateway(
  store: MedusaStore,
  backend: string,
  port: number,
): Promise<{ origin: string; stop(): Promise<void>; dir: string }> {
  const origin = `http://127.0.0.1:${port}`;
  const dir = mkdtempSync(join(tmpdir(), 'bench-medusa-'));
  const secretKeyFile = join(dir, 'medusa-secret-key');
  writeFileSync(secretKeyFile, store.seed.secretKey, { mode: 0o600 });
  mkdirSync(join(dir, 'tenants'));
  writeFileSync(join(dir, 'tenants', 'medusa.yaml'), tenantFile(origin, backend, store, secretKeyFile));
  const child = spawn(process.execPath, [resolve('dist/src/main.js')], {
    env: { ...process.env, PORT: String(port), CONFIG_DIR: dir, LOG_LEVEL: 'warn', MEDUSA_PUBLISHABLE_KEY: store.seed.publishableKey },
    // Its start-up errors (a tenant file it refuses) show on the bench's stderr; its logs do not.
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 300 && child.exitCode === null; i++) {
    try {
      if ((await fetch(`${origin}/readyz`)).ok) break;
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  if (child.exitCode !== null) throw new Error(`the gateway exited with ${child.exitCode}`);
  return {
    origin,
    dir,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

function databaseUrl(): string {
  const url = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  url.pathname = `/proto_medusa_bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  return url.toString();
}

async function main(): Promise<void> {
  const progress = (line: string) => process.stdout.write(`[bench:medusa] ${line}\n`);
  const store = await startMedusaStore({ databaseUrl: databaseUrl(), port: await freePort(), dropOnStop: true, progress });
  const proxy = await countingProxy(store.url);
  const agent = await serveAgentProfile();
  let gateway: Awaited<ReturnType<typeof startGateway>> | undefined;
  try {
    gateway = await startGateway(store, proxy.url, await freePort());
    const { variants } = store.seed;
    const lines = [
      { item: { id: variants.bouquet_roses! }, quantity: 2 },
      { item: { id: variants.pot_ceramic! }, quantity: 1 },
    ];
    const bench = new Bench(gateway.origin, agent.header, proxy.calls, lines);
    // Warm the gateway (profile fetched, store facts read) and Medusa before measuring.
    await bench.checkout(true);
    const rows: Array<{ operation: string; samples: Sample[] }> = [];
    const run = async (operation: string, setup: (i: number) => Promise<() => Promise<unknown>>) => {
      const samples: Sample[] = [];
      process.stdout.write(`${operation} `);
      for (let i = 0; i < REQUESTS; i++) {
        const request = await setup(i);
        samples.push(await bench.measure(request));
        process.stdout.write('.');
      }
      process.stdout.write('\n');
      rows.push({ operation, samples });
    };
    await run(
      'search_catalog',
      async (i) => () =>
        bench.call('POST', '/catalog/search', {
          query: ['rose', 'bouquet', 'tee', 'orchid', 'card'][i % 5]!,
          pagination: { limit: 10 + i },
        }),
    );
    await run(
      'search_catalog (cached)',
      async () => () => bench.call('POST', '/catalog/search', { query: 'rose', pagination: { limit: 10 } }),
    );
    await run('create_cart', async () => () => bench.cart());
    await run('create_checkout', async () => () => bench.checkout(false));
    await run('update_checkout (select a rate)', async () => {
      const created = await bench.checkout(false);
      return () => bench.choose(created);
    });
    const ready = await bench.checkout(true);
    await run('get_checkout', async () => () => bench.call('GET', `/checkout-sessions/${ready.id}`));
    await run('complete_checkout (gateway_charged)', async () => {
      const checkout = await bench.checkout(true);
      return () =>
        bench.call('POST', `/checkout-sessions/${checkout.id}/complete`, {
          payment: {
            instruments: [
              {
                id: 'i1',
                handler_id: 'sandbox',
                type: 'card',
                selected: true,
                credential: { type: 'PAYMENT_GATEWAY', token: 'success_token' },
              },
            ],
          },
        });
    });

    const table = rows.map(({ operation, samples }) => {
      const calls = samples.map((s) => s.calls);
      const added = samples.map((s) => s.totalMs - s.storeMs);
      const target = TARGETS[operation];
      const verdict = target === undefined ? '' : Math.max(...calls) <= target ? `≤ ${target} met` : `≤ ${target} **not met**`;
      const ms = (n: number) => n.toFixed(1);
      const total = median(samples.map((s) => s.totalMs));
      const storeMs = median(samples.map((s) => s.storeMs));
      const range = `${median(calls)} (${Math.min(...calls)}–${Math.max(...calls)})`;
      return `| ${operation} | ${range} | ${verdict} | ${ms(total)} | ${ms(storeMs)} | ${ms(median(added))} | ${ms(p90(added))} |`;
    });
    const section = [
      '## Medusa adapter against the real Medusa server',
      '',
      `${new Date().toISOString().slice(0, 10)}, ${machine()}, a machine shared with other work. The gateway (its own process, ` +
        'tenant on the Medusa adapter, gateway_charged, memory store, log level warn) in front of the seeded Medusa store ' +
        '(`medusa start`, local PostgreSQL) through a counting proxy in the bench process; no latency injected; one request ' +
        `at a time, ${REQUESTS} per operation. Medusa calls are counted per request; store time is the time the request spent ` +
        'with a Medusa call under way (overlapping calls counted once); gateway-added = total − store time. Targets are the ' +
        "WooCommerce bench's, for comparison.",
      '',
      '| operation | Medusa calls per request: median (min–max) | target | total p50 ms | Medusa p50 ms ' +
        '| gateway-added p50 ms | gateway-added p90 ms |',
      '|---|---|---|---:|---:|---:|---:|',
      ...table,
    ].join('\n');
    await writeSection('medusa', section);
    process.stdout.write(`${section}\n`);
  } finally {
    await gateway?.stop();
    if (gateway) rmSync(gateway.dir, { recursive: true, force: true });
    await agent.close();
    await proxy.close();
    await store.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:medusa failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
