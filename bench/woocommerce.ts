/**
 * `npm run bench:woocommerce`: the gateway in front of the WooCommerce simulator with latency
 * injected into every store call (BENCH_WOO_LATENCY_MS, default 25), one request at a time
 * (BENCH_WOO_REQUESTS per operation, default 20). Per protocol operation: the store calls each
 * request made, the time it waited on the store (calls on its critical path, overlaps counted
 * once) and what the gateway added on top. Targets: create_checkout at most 3 store calls,
 * get_checkout at most 1, a repeated (cached) search none. (Order reads need a signed caller and
 * are left to the adapter tests: one order call, one tracking call, one refunds call when refunded.)
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DEFAULT_KEY, startWooSimulator, type WooSimulator } from '../simulators/woocommerce/server.js';
import { tenantFile } from '../simulators/woocommerce/tenant-file.js';
import { freePort } from '../scripts/free-port.js';
import { serveAgentProfile } from './agent-profile.js';
import { machine, writeSection } from './results-file.js';

const LATENCY_MS = Number(process.env.BENCH_WOO_LATENCY_MS ?? 25);
const REQUESTS = Number(process.env.BENCH_WOO_REQUESTS ?? 20);
const TARGETS: Record<string, number> = { create_checkout: 3, get_checkout: 1, 'search_catalog (cached)': 0 };
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

const clock = () => performance.timeOrigin + performance.now();
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const p90 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.9))]!;

/** Time covered by the store calls of one request (overlapping calls count once). */
function storeTime(calls: Array<{ at: number; end?: number }>, until: number): number {
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

class Bench {
  constructor(
    private readonly origin: string,
    private readonly agent: string,
    private readonly sim: WooSimulator,
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

  /** One measured request: total time, store calls, store time on its path. */
  async measure(run: () => Promise<unknown>): Promise<Sample> {
    this.sim.controls.resetCalls();
    const started = clock();
    await run();
    const ended = clock();
    const calls = this.sim.controls.timedCalls();
    return { totalMs: ended - started, storeMs: storeTime(calls, ended), calls: calls.length };
  }

  async checkout(withOption: boolean): Promise<any> {
    const card = await this.variantOf('Greeting Card', 'Large / Thank You');
    const created = await this.call('POST', '/checkout-sessions', {
      line_items: [
        { item: { id: card }, quantity: 1 },
        { item: { id: String(this.sim.controls.idOf('bouquet_roses')) }, quantity: 2 },
      ],
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

  private variants = new Map<string, string>();

  async variantOf(product: string, title: string): Promise<string> {
    const key = `${product}|${title}`;
    if (!this.variants.has(key)) {
      const found = await this.call('POST', '/catalog/search', { query: product });
      const id = found.products.find((p: any) => p.title === product).id;
      const [size, message] = title.split(' / ');
      const detail = await this.call('POST', '/catalog/product', {
        id,
        selected: [
          { name: 'Size', label: size },
          { name: 'Message', label: message },
        ],
      });
      this.variants.set(key, (detail.product.selected_variant ?? detail.product.variants[0]).id);
    }
    return this.variants.get(key)!;
  }
}

async function startGateway(sim: WooSimulator, port: number): Promise<{ origin: string; stop(): Promise<void>; dir: string }> {
  const origin = `http://127.0.0.1:${port}`;
  const dir = mkdtempSync(join(tmpdir(), 'bench-woo-'));
  mkdirSync(join(dir, 'tenants'));
  writeFileSync(join(dir, 'tenants', 'woo.yaml'), tenantFile(origin, sim.url, 'gateway_charged'));
  const child = spawn(process.execPath, [resolve('dist/src/main.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      CONFIG_DIR: dir,
      LOG_LEVEL: 'warn',
      WOO_CONSUMER_KEY: DEFAULT_KEY.consumerKey,
      WOO_CONSUMER_SECRET: DEFAULT_KEY.consumerSecret,
      WOO_WEBHOOK_SECRET: 'bench',
    },
    stdio: 'ignore',
  });
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${origin}/readyz`)).ok) break;
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    origin,
    dir,
    stop: () =>
      new Promise<void>((done) => {
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

async function main(): Promise<void> {
  const sim = await startWooSimulator();
  const agent = await serveAgentProfile();
  const gateway = await startGateway(sim, await freePort());
  try {
    const bench = new Bench(gateway.origin, agent.header, sim);
    // Warm the gateway (profile fetched, store facts read) before any latency is injected.
    await bench.checkout(true);
    sim.controls.setLatency(LATENCY_MS);
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
    const card = await bench.variantOf('Greeting Card', 'Large / Thank You');
    const roses = String(sim.controls.idOf('bouquet_roses'));
    await run(
      'create_cart',
      async () => () =>
        bench.call('POST', '/carts', {
          line_items: [
            { item: { id: card }, quantity: 1 },
            { item: { id: roses }, quantity: 2 },
          ],
          discounts: { codes: ['10OFF'] },
        }),
    );
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
      const store = median(samples.map((s) => s.storeMs));
      const range = `${median(calls)} (${Math.min(...calls)}–${Math.max(...calls)})`;
      return `| ${operation} | ${range} | ${verdict} | ${ms(total)} | ${ms(store)} | ${ms(median(added))} | ${ms(p90(added))} |`;
    });
    const section = [
      '## WooCommerce adapter',
      '',
      `${new Date().toISOString().slice(0, 10)}, ${machine()}. The gateway (its own process, tenant on the WooCommerce adapter, ` +
        `memory store, log level warn) in front of the WooCommerce simulator (in the bench process) with ${LATENCY_MS} ms added to ` +
        `every store call; one request at a time, ${REQUESTS} per operation. Store calls are counted per request; store time is the ` +
        'time the request spent with a store call under way (overlapping calls counted once); gateway-added = total − store time.',
      '',
      '| operation | store calls per request: median (min–max) | target | total p50 ms | store p50 ms ' +
        '| gateway-added p50 ms | gateway-added p90 ms |',
      '|---|---|---|---:|---:|---:|---:|',
      ...table,
    ].join('\n');
    await writeSection('woocommerce', section);
    process.stdout.write(`${section}\n`);
  } finally {
    await gateway.stop();
    rmSync(gateway.dir, { recursive: true, force: true });
    await agent.close();
    await sim.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:woocommerce failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
