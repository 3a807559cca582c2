/**
 * `npm run bench:shopify`: the gateway with a `shopify` tenant in front of the Shopify simulator,
 * the simulator answering every call after SHOPIFY_LATENCY_MS (default 50). For each protocol
 * operation, measured one request at a time: the Shopify calls it makes, its latency end to end,
 * and the latency the gateway adds on top of the adapter's time with Shopify (end to end minus
 * the adapter calls' durations, as the gateway's backend observer times them). Medians.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { startShopifySimulator } from '../simulators/shopify/server.js';
import { simulatedTenantEnv, simulatedTenantYaml } from '../simulators/shopify/tenant-file.js';
import { buildServer } from '../src/server.js';
import { MemoryStore } from '../src/state/memory-store.js';
import { loadTenants } from '../src/tenancy/load.js';
import { serveAgentProfile } from './agent-profile.js';
import { machine, writeSection } from './results-file.js';

const LATENCY_MS = Number(process.env.SHOPIFY_LATENCY_MS ?? 50);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 15);
const CHICAGO = {
  street_address: '233 S Wacker Dr',
  address_locality: 'Chicago',
  address_region: 'IL',
  address_country: 'US',
  postal_code: '60606',
};
const BUYER = { email: 'bench@example.com' };

interface Sample {
  calls: string[];
  totalMs: number;
  addedMs: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const sim = await startShopifySimulator({ shopDomain: 'petal-and-stem-bench.myshopify.com' });
  const agent = await serveAgentProfile();
  const configDir = await mkdtemp(join(tmpdir(), 'bench-shopify-'));
  await mkdir(join(configDir, 'tenants'));
  await writeFile(
    join(configDir, 'tenants', 'shopify.yaml'),
    simulatedTenantYaml({ id: 'shopify', baseUrl: 'http://127.0.0.1', apiOrigin: sim.url, shop: sim.shopDomain }),
  );
  const spans: number[] = [];
  const store = new MemoryStore();
  const tenants = await loadTenants(configDir, {
    env: { ...process.env, ...simulatedTenantEnv(sim.credentials) },
    now: Date.now,
    store,
    observeBackend: () => (call) => void spans.push(call.durationMs),
  });
  const app = await buildServer({
    settings: { bodyLimitBytes: 1_048_576, logLevel: 'info' },
    tenants,
    store,
    logStream: new Writable({ write: (_c, _e, done) => done() }),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  let requests = 0;

  async function call(method: string, path: string, body?: unknown): Promise<{ sample: Sample; body: any }> {
    spans.length = 0;
    sim.resetCalls();
    const id = `bench-${++requests}`;
    const started = performance.now();
    const response = await fetch(`${origin}${path}`, {
      method,
      headers: { 'content-type': 'application/json', 'proto-agent': agent.header, 'request-id': id, 'idempotency-key': id },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const answer = (await response.json()) as any;
    const totalMs = performance.now() - started;
    if (response.status >= 400) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(answer)}`);
    const backendMs = spans.reduce((s, d) => s + d, 0);
    return { sample: { calls: sim.calls.map((c) => c.operationName ?? '?'), totalMs, addedMs: totalMs - backendMs }, body: answer };
  }

  const rows = new Map<string, Sample[]>();
  const record = (name: string, sample: Sample) => rows.set(name, [...(rows.get(name) ?? []), sample]);

  // Warm-up: the first calls build schemas, fetch the agent profile and the Admin token.
  const found = (await call('POST', '/catalog/search', { query: 'roses' })).body;
  const variant = found.products[0].variants[0].id as string;
  const lines = [{ item: { id: variant }, quantity: 2 }];
  sim.latencyMs = LATENCY_MS;

  for (let i = 0; i < SAMPLES; i++) {
    record(
      'search_catalog (not cached)',
      (await call('POST', '/catalog/search', { query: 'bouquet', pagination: { limit: i + 1 } })).sample,
    );
    record('search_catalog (cached)', (await call('POST', '/catalog/search', { query: 'roses' })).sample);
    record('get_product', (await call('POST', '/catalog/product', { id: variant, selected: [{ name: 'Size', label: `S${i}` }] })).sample);
    record('create_cart', (await call('POST', '/carts', { line_items: lines, discounts: { codes: ['10OFF'] } })).sample);
    const created = await call('POST', '/checkout-sessions', { line_items: lines, buyer: BUYER, discounts: { codes: ['10OFF'] } });
    record('create_checkout', created.sample);
    const checkout = created.body;
    const ids = checkout.line_items.map((l: any) => ({ id: l.id, item: { id: l.item.id }, quantity: l.quantity }));
    const update = (fulfillment: unknown) =>
      call('PUT', `/checkout-sessions/${checkout.id}`, { line_items: ids, buyer: BUYER, discounts: { codes: ['10OFF'] }, fulfillment });
    const asked = await update({ methods: [{ type: 'shipping', destinations: [CHICAGO] }] });
    record('update_checkout (destination)', asked.sample);
    const method = asked.body.fulfillment.methods[0];
    const chosen = await update({
      methods: [
        {
          id: method.id,
          type: 'shipping',
          destinations: method.destinations,
          groups: [{ id: method.groups[0].id, selected_option_id: method.groups[0].options[0].id }],
        },
      ],
    });
    record('update_checkout (option; Shopify tax)', chosen.sample);
    record('get_checkout', (await call('GET', `/checkout-sessions/${checkout.id}`)).sample);
    record('complete_checkout (handoff)', (await call('POST', `/checkout-sessions/${checkout.id}/complete`, {})).sample);
  }

  const TARGETS: Record<string, number> = { create_checkout: 2, get_checkout: 1, 'search_catalog (cached)': 0 };
  const table = [...rows].map(([name, samples]) => {
    const counts = samples.map((s) => s.calls.length);
    const calls = Math.max(...counts) === Math.min(...counts) ? String(counts[0]) : `${Math.min(...counts)}–${Math.max(...counts)}`;
    const last = samples.at(-1)!.calls;
    const kinds =
      [...new Set(last)]
        .map((k) => (last.filter((c) => c === k).length > 1 ? `${k} ×${last.filter((c) => c === k).length}` : k))
        .join(', ') || '–';
    const target = TARGETS[name];
    const verdict = target === undefined ? '' : `≤ ${target}: ${Math.max(...counts) <= target ? 'met' : '**not met**'}`;
    const total = median(samples.map((s) => s.totalMs)).toFixed(1);
    const added = median(samples.map((s) => s.addedMs)).toFixed(1);
    return `| ${name} | ${calls} | ${kinds} | ${total} | ${added} | ${verdict} |`;
  });
  const intro = [
    `${new Date().toISOString().slice(0, 10)}, ${machine()}. \`npm run bench:shopify\`: the gateway (in-process, memory store, response`,
    `signing on) with a \`shopify\` tenant in front of the Shopify simulator, which answers every Storefront and Admin call after`,
    `${LATENCY_MS} ms. Each operation is sent ${SAMPLES} times, one request at a time; columns are medians, *which* lists the calls of`,
    'the last request. *Shopify calls* are the GraphQL requests the simulator received for one protocol request; *gateway-added* is',
    "the end-to-end latency minus the time the adapter spent in its calls (the gateway's backend observer), i.e. what the gateway",
    'itself costs on top of Shopify.',
  ].join(' ');
  const notes = [
    "A quote is one Storefront call (a `Cart` read when nothing changed, else one `CartSync` document); the Admin API's",
    "`DraftOrderCalculate` adds Shopify's tax once an option is chosen, and is kept with the session while nothing changes. A repeated",
    'search is answered from the catalog answer cache, and get_product from the catalog cache after its first read (hence 0–1).',
    "create_cart also sets the cart's reference attribute for its `continue_url`; complete_checkout (handoff) prices the checkout",
    "again before it hands off and sets the checkout's reference on the Shopify cart.",
  ].join(' ');
  const markdown = [
    '## Shopify adapter against the simulator',
    intro,
    [
      '| operation | Shopify calls | which | end to end ms | gateway-added ms | calls target |',
      '|---|---:|---|---:|---:|---|',
      ...table,
    ].join('\n'),
    notes,
  ].join('\n\n');
  await writeSection('shopify', markdown);
  process.stdout.write(`${markdown}\n`);
  await app.close();
  await sim.close();
  await agent.close();
  await rm(configDir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:shopify failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
