/**
 * `npm run bench:adapters`: for each adapter (Shopify, WooCommerce, REST, Medusa; BENCH_ADAPTERS
 * picks some, e.g. `shopify,medusa`), the gateway as its own process in front of the store, and per
 * protocol operation: the store calls each request makes, and the gateway-added latency (the
 * gateway's time minus the time spent in store calls, measure.ts) p50 and p99, sequentially
 * (BENCH_SAMPLES requests, default 100, so that p99 is not simply the slowest of a few, after
 * BENCH_WARMUP unmeasured ones of each operation, default 300) and, for the operations that can
 * be repeated, at a fixed rate (BENCH_RATE requests per
 * second, default 200, for BENCH_RATE_SECONDS, default 30; 0 skips it). A store that cannot
 * serve that much has its own defaults (Target.pace: Medusa 100 and 5/s).
 * BENCH_LATENCY_MS (default 25) is added to every simulated store call; Medusa runs for real on
 * the local PostgreSQL (DATABASE_URL) in a fresh database, dropped afterwards. BENCH_GATEWAY_ROOT
 * names another checkout, built, whose gateway is measured instead (an A/B against older code);
 * its tables are printed, not written to bench/results.md, which shows this checkout's gateway.
 *
 * The warm-up stands for the traffic a serving gateway has already answered: thousands of requests,
 * its hot code compiled by V8's optimizing tiers. After 20 requests of each operation that code
 * still ran partly in the interpreter and baseline tiers (2026-11-27, Shopify: two runs of 60
 * samples, 400 against 20, gateway CPU 0.65-0.8 of it, e.g. create_cart 3.2 → 2.2 ms; two gateways
 * warmed 300 and 20 serving alternately in one run, sides swapped and run again to cancel the
 * order's bias, 0.84-0.89 of it, the uncached search 0.73). 300 of each (some 3,000 requests
 * with their set-up) keeps the run short. The uncached search warms up with fewer, so that its measured
 * requests still ask what was not asked before (Operation.distinct).
 *
 * A sequential request resumes after every store call's 25 ms wait, and on this shared machine the
 * same code after any such pause costs about 2-3.5 times the CPU it costs back to back
 * (bench/adapters/idle-penalty.ts measures it), so its gateway CPU and added latency are above a
 * busy gateway's: compare the at-rate columns, or the same request with BENCH_LATENCY_MS=0.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../scripts/free-port.js';
import { startMedusaStore, type MedusaStore } from '../../scripts/medusa-store.js';
import { serveAgentProfile } from '../agent-profile.js';
import { machine, writeSection } from '../results-file.js';
import { ownProcess } from './gateway.js';
import { addedAtClientMs, addedMs, atRate, namedCalls, percentile, sequential, type Sample } from './measure.js';
import { GatewayClient, scenario } from './scenario.js';
import { ADAPTERS, medusaTarget, restTarget, shopifyTarget, woocommerceTarget, type AdapterName, type Target } from './targets.js';

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 100);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 25);
const RATE_SECONDS = Number(process.env.BENCH_RATE_SECONDS ?? 30);
const TITLES: Record<AdapterName, string> = { shopify: 'Shopify', woocommerce: 'WooCommerce', rest: 'REST', medusa: 'Medusa' };

const progress = (line: string) => process.stdout.write(`[bench:adapters] ${line}\n`);
const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '–');

function calls(samples: Sample[]): string {
  const counts = samples.map((s) => s.calls.length);
  const [min, max] = [Math.min(...counts), Math.max(...counts)];
  return min === max ? String(min) : `${min}–${max}`;
}

function which(labels: string[]): string {
  const counted = new Map<string, number>();
  for (const l of labels) counted.set(l, (counted.get(l) ?? 0) + 1);
  return [...counted].map(([l, n]) => (n > 1 ? `${l} ×${n}` : l)).join(', ') || '–';
}

async function medusa(): Promise<{ target: Target; stop(): Promise<void> }> {
  const url = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  url.pathname = `/proto_medusa_bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const store: MedusaStore = await startMedusaStore({ databaseUrl: url.toString(), port: await freePort(), dropOnStop: true, progress });
  const dir = mkdtempSync(join(tmpdir(), 'bench-medusa-'));
  const keyFile = join(dir, 'secret-key');
  writeFileSync(keyFile, store.seed.secretKey, { mode: 0o600 });
  return {
    target: medusaTarget(store.url, store.seed, keyFile),
    async stop() {
      rmSync(dir, { recursive: true, force: true });
      await store.stop();
    },
  };
}

async function start(name: AdapterName): Promise<{ target: Target; stop(): Promise<void> }> {
  if (name === 'medusa') return medusa();
  const target = await { shopify: shopifyTarget, woocommerce: woocommerceTarget, rest: restTarget }[name]();
  return { target, stop: () => target.close() };
}

/** Unmeasured requests per operation and requests a second at rate: the settings, else what the store can serve, else 300 and 200. */
function paceOf(target: Target): Pace {
  return {
    warmup: Number(process.env.BENCH_WARMUP ?? target.pace?.warmup ?? 300),
    rate: Number(process.env.BENCH_RATE ?? target.pace?.rate ?? 200),
  };
}

interface Pace {
  warmup: number;
  rate: number;
}

async function benchAdapter(name: AdapterName, agent: string): Promise<{ table: string; pace: Pace }> {
  const started = await start(name);
  const { target } = started;
  const pace = paceOf(target);
  const gateway = await ownProcess(target.tenantYaml, target.env);
  try {
    const client = new GatewayClient(gateway.origin, agent);
    const operations = scenario(await target.scenario(client));
    // Warm-up without latency: schemas compiled, the agent profile fetched, store facts read, hot code optimized. An
    // operation with few distinct requests keeps enough of them for the measured ones and the one naming the calls.
    for (const op of operations) await sequential(client, gateway, op, Math.min(pace.warmup, (op.distinct ?? Infinity) - SAMPLES - 1));
    target.setLatency(LATENCY_MS);
    const rows: string[] = [];
    for (const op of operations) {
      progress(`${name}: ${op.name}, ${SAMPLES} sequential`);
      const one = await sequential(client, gateway, op, SAMPLES);
      const names = await namedCalls(client, gateway, op, target);
      let rated: Sample[] = [];
      let failed = '';
      if (op.repeatable && RATE_SECONDS > 0) {
        progress(`${name}: ${op.name}, ${pace.rate}/s for ${RATE_SECONDS} s`);
        const result = await atRate(client, gateway, op, pace.rate, RATE_SECONDS);
        rated = result.samples;
        if (result.failed > 0) failed = ` (${result.failed} of ${result.failed + rated.length} failed)`;
      }
      const p50 = (f: (s: Sample) => number) => ms(percentile(one.map(f), 50));
      const added = one.map(addedMs);
      const ratedAdded = rated.map(addedMs);
      rows.push(
        `| ${op.name} | ${calls(one)} | ${which(names)} | ${p50((s) => s.totalMs)} | ${p50((s) => s.totalMs - s.gatewayMs)} | ` +
          `${p50((s) => s.cpuMs)} | ${ms(percentile(added, 50))} | ${ms(percentile(added, 99))} | ` +
          `${rated.length ? ms(percentile(ratedAdded, 50)) : '–'} | ${rated.length ? ms(percentile(ratedAdded, 99)) : '–'}${failed} | ` +
          `${rated.length ? ms(percentile(rated.map(addedAtClientMs), 99)) : '–'} |`,
      );
    }
    const table = [
      `### ${TITLES[name]}`,
      '',
      '| operation | store calls | which (one more request) | total p50 ms | outside the gateway p50 ms | gateway CPU p50 ms ' +
        '| added p50 ms | added p99 ms | added p50 ms at rate | added p99 ms at rate | added p99 ms at rate, at the client |',
      '|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...rows,
    ].join('\n');
    return { table, pace };
  } finally {
    await gateway.close();
    await started.stop();
  }
}

function intro(name: AdapterName, pace: Pace): string {
  const store =
    name === 'medusa' ? 'the seeded Medusa server (its own time is the store time)' : `the store, ${LATENCY_MS} ms added to every call`;
  return [
    `${new Date().toISOString().slice(0, 10)}, ${machine()}, load average ${loadavg()[0]!.toFixed(1)} at the end.`,
    '`npm run bench:adapters` (scenario: bench/adapters/scenario.ts): the gateway as its own process (memory store,',
    `request log at info to /dev/null, NODE_ENV=production) in front of ${store}. Sequential: ${SAMPLES} requests one at a time`,
    `after ${pace.warmup} unmeasured ones of each operation (fewer for the uncached search, whose queries must stay new),`,
    "standing for the traffic a serving gateway has already answered (its hot code compiled by V8's optimizing tiers);",
    `at rate: ${pace.rate} requests/s for ${RATE_SECONDS} s,`,
    'for the operations that can be repeated.',
    'Store calls are the HTTP calls the gateway made for the request (seen inside its process by async context);',
    "added = the gateway's time from the request's arrival to its answer written, minus the time with a store call under way",
    "(overlaps counted once), both on the gateway's clock; outside the gateway = total at the client − the gateway's time",
    "(the bench's client, loopback, and the bench process, which also runs the simulated stores, waiting for a core);",
    "gateway CPU = the gateway process's CPU time (all threads) while it served the request, steadier than latency on a shared machine.",
    "At rate, a request that waits for the gateway's busy event loop before its headers are read waits outside the gateway's clock:",
    'the last column, total at the client − store time, bounds the added p99 from above (it also counts the bench process).',
    'Targets: added p50 ≤ 1.5 ms and p99 ≤ 5 ms sequential, p99 ≤ 10 ms at rate.',
  ].join(' ');
}

async function main(): Promise<void> {
  const wanted = (process.env.BENCH_ADAPTERS ?? ADAPTERS.join(',')).split(',').map((s) => s.trim());
  const unknown = wanted.filter((w) => !(ADAPTERS as readonly string[]).includes(w));
  if (unknown.length) throw new Error(`BENCH_ADAPTERS: unknown ${unknown.join(', ')} (known: ${ADAPTERS.join(', ')})`);
  const agent = await serveAgentProfile();
  try {
    for (const name of wanted as AdapterName[]) {
      const { table, pace } = await benchAdapter(name, agent.header);
      const section = [`## ${TITLES[name]} adapter: store calls and gateway-added latency`, '', intro(name, pace), '', table].join('\n');
      if (process.env.BENCH_GATEWAY_ROOT === undefined) await writeSection(`adapters-${name}`, section);
      process.stdout.write(`${section}\n\n`);
    }
  } finally {
    await agent.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:adapters failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
