/**
 * The REST adapter rows of `npm run bench` (alone with BENCH_REST_ONLY=1): the gateway serving the
 * flowers tenant (config/rest-demo) in front of the reference store (examples/rest-store), which
 * adds BENCH_STORE_LATENCY_MS (default 20 ms) to every API call; each row on a gateway process of its own,
 * like the demo rows, so the REST and demo figures compare. Per protocol operation:
 * - store calls per operation: the store's own count of API calls over 20 sequential operations
 *   (after one that warms the gateway's catalog cache);
 * - the gateway's p50 / p99 at the run's connections, and the store's own p50 / p99 over the
 *   same window (timed inside the store), so the gateway's share is the difference: for an
 *   operation making n store calls in a row, gateway p50 - n × store p50 (p99 likewise).
 */
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { CALLS, send, type CallMaker } from './calls.js';
import { measure, type DriveSettings, type Measurement } from './drive.js';
import { startRestGateway, startRestStore, type ServerProcess } from './processes.js';
import { machine } from './results-file.js';

const STORE_LATENCY_MS = Number(process.env.BENCH_STORE_LATENCY_MS ?? 20);
const TARGET_P50_MS = 2;
const TARGET_P99_MS = 10;
/** Sequential operations the store calls are counted over. */
const COUNTED = 20;

interface RestRow {
  operation: keyof typeof CALLS;
  call: CallMaker;
  /** Most store calls per operation the issue allows. */
  maxStoreCalls?: number;
  note?: string;
}

const ROWS: RestRow[] = [
  { operation: 'search_catalog', call: CALLS.search_catalog, maxStoreCalls: 0, note: 'cached' },
  { operation: 'get_product', call: CALLS.get_product, note: 'cached' },
  { operation: 'create_cart', call: CALLS.create_cart },
  { operation: 'create_checkout', call: CALLS.create_checkout, maxStoreCalls: 2 },
  { operation: 'get_checkout', call: CALLS.get_checkout, maxStoreCalls: 1 },
];

export const REST_OPERATIONS: readonly string[] = ROWS.map((r) => r.operation);

interface StoreLatency {
  calls: number;
  p50Ms: number;
  p99Ms: number;
}

async function control<T>(store: ServerProcess, method: string, path: string): Promise<T> {
  const response = await fetch(`${store.origin}/_control${path}`, { method });
  return (await response.json()) as T;
}

const resetStore = (store: ServerProcess) => control(store, 'DELETE', '/calls');
const storeCallCount = async (store: ServerProcess) =>
  Object.values(await control<Record<string, number>>(store, 'GET', '/calls')).reduce((a, b) => a + b, 0);

/** Waits until the store has had no call for half a second: a row's backlog must not count for the next. */
async function settle(store: ServerProcess): Promise<void> {
  let last = -1;
  for (;;) {
    const now = await storeCallCount(store);
    if (now === last) return;
    last = now;
    await new Promise((r) => setTimeout(r, 500));
  }
}

interface Result {
  row: RestRow;
  storeCalls: number;
  gateway: Measurement;
  store: StoreLatency;
}

const ms = (n: number) => (n < 10 ? n.toFixed(1) : Math.round(n).toString());

function render(results: Result[], settings: DriveSettings): { markdown: string; verdicts: string[] } {
  const verdicts: string[] = [];
  const table = [
    '| operation | store calls per operation | gateway req/s | gateway CPU µs/req | gateway p50 ms | gateway p99 ms ' +
      '| store p50 ms | store p99 ms | added p50 ms | added p99 ms | targets |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...results.map(({ row, storeCalls, gateway, store }) => {
      const calls = Math.round(storeCalls * 100) / 100;
      const inRow = Math.ceil(storeCalls - 1e-9);
      const addedP50 = gateway.p50Ms - inRow * store.p50Ms;
      const addedP99 = gateway.p99Ms - inRow * store.p99Ms;
      const targets = [
        `added p50 ≤ ${TARGET_P50_MS} ${addedP50 <= TARGET_P50_MS ? 'met' : '**not met**'}`,
        `added p99 ≤ ${TARGET_P99_MS} ${addedP99 <= TARGET_P99_MS ? 'met' : '**not met**'}`,
      ];
      if (row.maxStoreCalls !== undefined)
        targets.push(`≤ ${row.maxStoreCalls} store calls ${storeCalls <= row.maxStoreCalls ? 'met' : '**not met**'}`);
      verdicts.push(...targets.filter((t) => t.includes('not met')).map((t) => `${row.operation}: ${t.replace(/\*\*/g, '')}`));
      const name = row.note ? `${row.operation} (${row.note})` : row.operation;
      const cells = [name, calls, Math.round(gateway.reqPerSec), Math.round(gateway.cpuMicros), gateway.p50Ms, gateway.p99Ms];
      cells.push(ms(store.p50Ms), ms(store.p99Ms), ms(addedP50), ms(addedP99), targets.join('; '));
      return `| ${cells.join(' | ')} |`;
    }),
  ];
  const markdown = [
    '## REST adapter against the reference store',
    '',
    [
      `${new Date().toISOString().slice(0, 10)}, ${machine()}.`,
      'The gateway serves the flowers tenant (config/rest-demo, generic REST adapter, JSONata mappings, HMAC-signed store calls,',
      'response signing off) in front of the reference store (examples/rest-store), each its own process (a fresh gateway per row),',
      `the store adding ${STORE_LATENCY_MS} ms to every API call. autocannon, ${settings.connections} connections,`,
      `${settings.warmupSeconds} s warm-up then ${settings.seconds} s per row.`,
      `Store calls per operation: the store's own count over ${COUNTED} sequential operations, after one that warms the catalog cache.`,
      "Store p50 / p99: the store's own time per call (its injected latency included), over the measured window.",
      'Added: gateway p50 minus the store p50 for each store call the operation makes in a row (p99 likewise),',
      'what the gateway itself adds, loopback hops included.',
    ].join(' '),
    '',
    ...table,
    '',
    [
      `Load average of the machine when the run ended: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(', ')} (1, 5, 15 min) on ${cpus().length} cores;`,
      "gateway CPU µs/req is the gateway process's CPU time over the requests it answered,",
      'which depends far less on that load than latency does.',
    ].join(' '),
    '',
    verdicts.length === 0 ? 'Every target is met.' : `Not met: ${verdicts.join('; ')}.`,
  ].join('\n');
  return { markdown, verdicts };
}

export async function restRows(settings: DriveSettings, agentHeader: string, workDir: string, only?: string[]): Promise<string> {
  const secrets = { apiSecret: randomBytes(24).toString('base64url'), webhookSecret: randomBytes(24).toString('base64url') };
  const store = await startRestStore(STORE_LATENCY_MS, secrets);
  try {
    const results: Result[] = [];
    for (const row of ROWS.filter((r) => !only || only.includes(r.operation))) {
      // A gateway process for the row alone, as every demo row gets (bench/processes.ts withGateway): one
      // process for all rows made each row meet a heap holding every cart and checkout the rows before it made.
      const gateway = await startRestGateway(workDir, store.origin, secrets);
      try {
        results.push(await measureRow(row, gateway, store, settings, agentHeader));
      } finally {
        await gateway.stop();
      }
    }
    return render(results, settings).markdown;
  } finally {
    await store.stop();
  }
}

async function measureRow(
  row: RestRow,
  gateway: ServerProcess,
  store: ServerProcess,
  settings: DriveSettings,
  agentHeader: string,
): Promise<Result> {
  const call = await row.call(agentHeader, gateway);
  await settle(store);
  await send(gateway, call, row.operation); // warms the catalog cache
  await resetStore(store);
  for (let n = 0; n < COUNTED; n++) await send(gateway, call, row.operation);
  const storeCalls = (await storeCallCount(store)) / COUNTED;
  process.stdout.write(`rest ${row.operation}: ${storeCalls} store calls per operation; gateway… `);
  const measured = await measure(gateway, call, settings, () => resetStore(store));
  const latency = await control<StoreLatency>(store, 'GET', '/latency');
  process.stdout.write(`${Math.round(measured.reqPerSec)} req/s, p50 ${measured.p50Ms} ms (store ${ms(latency.p50Ms)} ms)\n`);
  if (measured.failures > 0)
    throw new Error(`rest ${row.operation}: ${measured.failures} failed requests; the figures would not mean anything`);
  return { row, storeCalls, gateway: measured, store: latency };
}
