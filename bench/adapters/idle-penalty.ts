/**
 * What a request pays for coming after a pause, whatever the adapter: the demo tenant (memory
 * adapter, no store calls, signing off) in this process, one create_checkout at a time through
 * Fastify's inject (no sockets), its CPU measured from its start until its trailing work has run,
 * after each kind of gap: none, ten event-loop turns, 1 or 25 ms asleep, 25 ms busy on this thread;
 * then a bare Fastify 1 KB echo (the bench's baseline) the same way, to tell the gateway's share
 * of the penalty from the machine's, and a walk through 64 KB of memory (1,024 dependent reads, one
 * per cache line, no allocation, no I/O, no Node), which isolates the machine: back to back its
 * lines sit in the core's own caches; after a gap, a walk slower by whole memory latencies means
 * the caches were taken away while the thread waited.
 * The same request runs the same code in every row, so a row's excess over `none` is what
 * the machine charges for the time that passed: bench:adapters' sequential requests wait 25 ms
 * per store call, so they pay it on every step, and a busy gateway does not. Under callgrind the
 * request runs the same instructions either way (2026-11-27, the memory store's sweep off, phases
 * of 120 interleaved: 0.85 and 1.07 M per request back to back, 0.93 and 1.03 M after 25 ms asleep),
 * so the excess is the machine's cycles per instruction, not the gateway's code.
 *
 * `npm run build && npm exec -- node dist/bench/adapters/idle-penalty.js [rounds]`
 * (process.cpuUsage, not threadCpuUsage: on this kernel the thread figure moves in whole ticks.)
 */
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { buildServer } from '../../src/server.js';
import { MemoryStore } from '../../src/state/memory-store.js';
import { loadTenants } from '../../src/tenancy/load.js';
import { serveAgentProfile } from '../agent-profile.js';
import { percentile } from './measure.js';

const ROUNDS = Number(process.argv[2] ?? 15);
const PER_ROUND = 20;
const WARMUP = 5_000;
const PAYLOAD = JSON.stringify({ line_items: [{ item: { id: 'bouquet_roses' }, quantity: 2 }], buyer: { email: 'bench@example.com' } });

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};
const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};
const GAPS: Record<string, () => Promise<void>> = {
  none: async () => undefined,
  '10 event-loop turns': () => turns(10),
  '1 ms asleep': () => sleep(1),
  '25 ms asleep': () => sleep(25),
  '25 ms busy': async () => busy(25),
};

/** CPU per request of `request` after each gap, the gaps interleaved round by round. */
async function measure(subject: string, request: () => Promise<void>): Promise<void> {
  for (let i = 0; i < WARMUP; i++) await request();
  const cpu = new Map(Object.keys(GAPS).map((name) => [name, [] as number[]]));
  for (let round = 0; round < ROUNDS; round++)
    for (const [name, gap] of Object.entries(GAPS))
      for (let i = 0; i < PER_ROUND; i++) {
        await gap();
        await turns(2); // the gap's own callbacks run before the measured request starts
        const before = process.cpuUsage();
        await request();
        await turns(2); // and the request's trailing work is counted as its own
        const used = process.cpuUsage(before);
        cpu.get(name)!.push(used.user + used.system);
      }
  const base = percentile(cpu.get('none')!, 50);
  process.stdout.write(`${subject}, CPU µs per request after each gap, ${ROUNDS} interleaved rounds:\n`);
  for (const [name, values] of cpu) {
    const [p25, p50, p75] = [25, 50, 75].map((p) => percentile(values, p).toFixed(0));
    process.stdout.write(`${name.padEnd(20)} p25 ${p25}  p50 ${p50}  p75 ${p75}  (${(percentile(values, 50) / base).toFixed(2)} × none)\n`);
  }
}

/** A fixed random cycle through `bytes` of memory, one 4-byte slot per 64-byte line: each read names the next. */
function memoryWalk(bytes: number): () => Promise<void> {
  const lines = bytes / 64;
  const stride = 16; // Int32 slots per line
  const ring = new Int32Array(lines * stride);
  const order = Array.from({ length: lines }, (_, i) => i);
  for (let i = lines - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  order.forEach((line, i) => (ring[line * stride] = order[(i + 1) % lines]! * stride));
  let sink = 0;
  return async () => {
    let slot = 0;
    for (let i = 0; i < lines; i++) slot = ring[slot]!;
    sink ^= slot;
    if (sink === -1) throw new Error('unreachable: keeps the walk from being optimized away');
  };
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'idle-penalty-'));
  await mkdir(join(dir, 'tenants'));
  const demo = await readFile(resolve('config/tenants/demo.yaml'), 'utf8');
  await writeFile(
    join(dir, 'tenants', 'demo.yaml'),
    demo.replace(/data_dir: .*/, `data_dir: ${resolve('config/demo')}`).replace(/sign_responses: .*/, 'sign_responses: false'),
  );
  const store = new MemoryStore();
  const tenants = await loadTenants(dir, { env: process.env, now: Date.now, store, baseUrl: 'http://127.0.0.1:1' });
  const app = await buildServer({
    settings: { bodyLimitBytes: 1 << 20, logLevel: 'info' },
    tenants,
    store,
    logStream: new Writable({ write: (_c, _e, done) => done() }),
  });
  const agent = await serveAgentProfile();
  let sequence = 0;
  const createCheckout = async () => {
    const id = `idle-${++sequence}`;
    const headers = {
      host: '127.0.0.1:1',
      'content-type': 'application/json',
      'proto-agent': agent.header,
      'request-id': id,
      'idempotency-key': id,
    };
    const response = await app.inject({ method: 'POST', url: '/checkout-sessions', headers, payload: PAYLOAD });
    if (response.statusCode !== 201) throw new Error(`create_checkout answered ${response.statusCode}: ${response.body.slice(0, 300)}`);
  };
  // The bench's baseline (bench/baseline-server.ts) in this process: does a bare server pay the same?
  const bare = Fastify({ logger: false });
  bare.post('/echo', async (request) => request.body);
  const echoBody = JSON.stringify({ padding: 'x'.repeat(1000) });
  const echo = async () => {
    const response = await bare.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      payload: echoBody,
    });
    if (response.statusCode !== 200) throw new Error(`echo answered ${response.statusCode}`);
  };
  try {
    for (const [subject, request] of [
      ['create_checkout (demo tenant, inject)', createCheckout],
      ['bare Fastify 1 KB echo (inject)', echo],
      ['64 KB memory walk (1,024 dependent reads)', memoryWalk(64 * 1024)],
    ] as const)
      await measure(subject, request);
  } finally {
    await bare.close();
    await app.close();
    await agent.close();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`idle-penalty failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
