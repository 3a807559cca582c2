/**
 * `npm run bench`: the gateway (demo tenant) against a bare Fastify baseline, measured in the same
 * run. Each gateway row is measured right after its own baseline run, so that a machine that
 * speeds up or slows down during the run moves both sides of a ratio alike.
 *
 * Every gateway measurement meets a fresh process, as production runs one, and one that is warm as a
 * serving process is: its warm-up lasts BENCH_WARMUP_SECONDS and at least BENCH_WARMUP_REQUESTS
 * requests (drive.ts). By seconds alone, a busy machine warmed a gateway with a few hundred
 * requests, and the measured seconds then paid for V8 still compiling the request path.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { serveAgentProfile } from './agent-profile.js';
import { send } from './calls.js';
import { measure, WARMUP_REQUESTS, type Call, type DriveSettings, type Measurement } from './drive.js';
import { REDIS_URL, rowGateway, startBaseline, withGateway, type ServerProcess } from './processes.js';
import { REST_OPERATIONS, restRows } from './rest-rows.js';
import { BARE_GET, selectedRows, type Row } from './rows.js';
import { machine, writeSection } from './results-file.js';

const settings: DriveSettings = {
  seconds: Number(process.env.BENCH_SECONDS ?? 10),
  warmupSeconds: Number(process.env.BENCH_WARMUP_SECONDS ?? 3),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
};
/** Rounds of every row; each row reports its median round. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
/** BENCH_ONLY=search_catalog,get_product measures those rows alone (while profiling, say). */
const ONLY = process.env.BENCH_ONLY?.split(',');
/** BENCH_REST_ONLY=1 measures only the REST adapter rows (bench/rest-rows.ts). */
const REST_ONLY = process.env.BENCH_REST_ONLY === '1' || process.env.BENCH_REST_ONLY === 'true';

/** One request before measuring: a row whose call is refused would only measure the refusal. */
async function check(server: ServerProcess, call: Call, operation: string): Promise<void> {
  await send(server, call, operation);
}

const fixed = (n: number, digits = 2) => n.toFixed(digits);

interface Pair {
  base: Measurement;
  gateway: Measurement;
}
const ratioOf = (pair: Pair) => pair.gateway.reqPerSec / pair.base.reqPerSec;
/** Baseline CPU per request over the gateway's: the ratio a CPU-bound gateway reaches, steadier than req/s on a busy machine. */
const cpuRatioOf = (pair: Pair) => pair.base.cpuMicros / pair.gateway.cpuMicros;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

/** The demo-store rows against the bare baseline. */
async function throughput(): Promise<void> {
  const redis = new Redis(REDIS_URL);
  await redis.flushdb();
  const workDir = await mkdtemp(join(tmpdir(), 'proto-bench-'));
  const agent = await serveAgentProfile();
  const servers: ServerProcess[] = [];
  try {
    const baseline = await startBaseline();
    servers.push(baseline);

    const selected = selectedRows(ONLY);
    const rounds = new Map<Row, Pair[]>(selected.map((row) => [row, []]));
    for (let round = 1; round <= ROUNDS; round++) {
      for (const row of selected) {
        process.stdout.write(`${ROUNDS > 1 ? `[${round}/${ROUNDS}] ` : ''}${row.operation} (${row.gateway}): baseline… `);
        const base = await measure(baseline, row.baseline, settings);
        process.stdout.write(`${Math.round(base.reqPerSec)} req/s; gateway… `);
        // Each measurement meets a gateway of its own, as a production process would be: no heap left by other rows.
        const gateway = await withGateway(rowGateway(row.gateway, workDir), async (server) => {
          const call = await row.call(agent.header, server);
          await check(server, call, row.operation);
          return measure(server, call, settings);
        });
        process.stdout.write(`${Math.round(gateway.reqPerSec)} req/s (${gateway.failures} failures)\n`);
        if (gateway.failures > 0 || base.failures > 0)
          throw new Error(`${row.operation}: ${gateway.failures} failed requests; the figures would not mean anything`);
        rounds.get(row)!.push({ base, gateway });
      }
    }
    // Each row reports its median round (by ratio) and the range of its ratios.
    const results = selected.map((row) => {
      const pairs = [...rounds.get(row)!].sort((a, b) => ratioOf(a) - ratioOf(b));
      return { row, ...pairs[Math.floor((pairs.length - 1) / 2)]!, low: ratioOf(pairs[0]!), high: ratioOf(pairs.at(-1)!) };
    });

    const verdicts: string[] = [];
    const table = [
      '| operation | store, signing | gateway req/s | p50 ms | p99 ms | CPU µs/req | baseline | baseline req/s | baseline CPU ' +
        'µs/req | ratio | CPU ratio | target |',
      '|---|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---|',
      ...results.map(({ row, base, gateway, low, high }) => {
        const ratio = gateway.reqPerSec / base.reqPerSec;
        const cpuRatio = median(rounds.get(row)!.map(cpuRatioOf));
        const targets: string[] = [];
        if (row.target !== undefined) targets.push(`CPU ratio ≥ ${row.target} ${cpuRatio >= row.target ? 'met' : '**not met**'}`);
        targets.push(`p99 ≤ ${row.p99TargetMs} ms ${gateway.p99Ms <= row.p99TargetMs ? 'met' : '**not met**'}`);
        verdicts.push(...targets.filter((t) => t.includes('not met')).map((t) => `${row.operation} (${row.gateway}): ${t}`));
        const store = row.gateway === 'redis' ? 'Redis, off' : row.gateway === 'signing' ? 'memory, **on**' : 'memory, off';
        const baseName = row.baseline === BARE_GET ? 'bare GET' : '1 KB echo';
        return (
          `| ${row.operation} | ${store} | ${Math.round(gateway.reqPerSec)} | ${gateway.p50Ms} | ` +
          `${gateway.p99Ms} | ${Math.round(gateway.cpuMicros)} | ${baseName} | ${Math.round(base.reqPerSec)} | ` +
          `${Math.round(base.cpuMicros)} | ` +
          `${fixed(ratio)}${ROUNDS > 1 ? ` (${fixed(low)}–${fixed(high)})` : ''} | ${fixed(cpuRatio)} | ` +
          `${targets.join('; ')} |`
        );
      }),
    ];
    // Signing cost per round, each side over its own baseline (the machine's speed drifts between
    // runs); the median round is reported. CPU per request decides: req/s moves with the load generator.
    const signingLines = ['get_checkout', 'create_checkout'].flatMap((operation) => {
      const [off, on] = ['memory', 'signing'].map((g) => rounds.get(selected.find((r) => r.operation === operation && r.gateway === g)!));
      if (!off || !on) return [];
      const cost = median(on.map((pair, i) => 1 - ratioOf(pair) / ratioOf(off[i]!)));
      const cpu = median(on.map((pair, i) => cpuRatioOf(off[i]!) / cpuRatioOf(pair) - 1));
      const line =
        `Response signing on ${operation} costs ${fixed(cpu * 100, 1)} % more CPU per request ` +
        `(target ≤ 15 %: ${cpu <= 0.15 ? 'met' : '**not met**'}) and ${fixed(cost * 100, 1)} % of throughput.`;
      if (cpu > 0.15) verdicts.push(line);
      return [line];
    });

    const markdown = [
      '## Throughput and latency',
      '',
      `${new Date().toISOString().slice(0, 10)}, ${machine()}. autocannon, ${settings.connections} ` +
        `connections, ${settings.warmupSeconds} s warm-up (at least ${WARMUP_REQUESTS.toLocaleString('en')} requests) ` +
        `then ${settings.seconds} s per row` +
        (ROUNDS > 1 ? `, ${ROUNDS} rounds of every row (each row shows its median round, and in brackets the range of its ratios)` : '') +
        `; ` +
        `every server is its own process on the same machine as the load generator, and every gateway measurement ` +
        `(its warm-up included) meets a gateway process started for it alone, as production runs one, not one whose heap ` +
        `holds what earlier rows left. CPU µs/req is the server ` +
        `process's CPU time (user + system) over the requests it answered; the CPU ratio is the baseline's ` +
        `CPU µs/req over the gateway's (median of the rounds), what the ratio would be if each server had a ` +
        `core to itself. Ratios are gateway req/s over the baseline run just before it: a bare Fastify server ` +
        `answering a 1 KB JSON echo, or a bare GET of 1 KB for discovery. The gateway serves the demo tenant ` +
        `with its request log at \`info\` (to /dev/null); writes carry a fresh Idempotency-Key each, reads ` +
        `and writes a PROTO-Agent naming a local profile (fetched once, then cached).`,
      '',
      ...table,
      '',
      ...signingLines.map((line) => `- ${line}`),
      '',
      'get_checkout answers the same checkout again and again: identical answers within one second reuse their signature ' +
        '(src/security/sign.ts). Every create_checkout answer is new, so each costs one ES256 signature.',
      '',
      `With ${settings.connections} connections, mean latency is ${settings.connections} / throughput ` +
        `(Little's law): a p99 of 10 ms needs at least ` +
        `${Math.round((settings.connections * 1000) / 10).toLocaleString('en')} req/s, one of 20 ms ` +
        `${Math.round((settings.connections * 1000) / 20).toLocaleString('en')}. Targets on the ratio are ` +
        `judged on the CPU ratio (issue 19), the steadier figure on a shared machine; the load average at the ` +
        `end of the run was ${loadavg()
          .map((l) => l.toFixed(1))
          .join(', ')} (1, 5, 15 min) on ${cpus().length} cores.`,
      '',
      verdicts.length === 0 ? 'Every target is met.' : `Not met: ${verdicts.map((v) => v.replace(/\*\*/g, '')).join('; ')}`,
    ].join('\n');
    if (!ONLY) await writeSection('throughput', markdown);
    process.stdout.write(`\n${markdown}\n${ONLY ? '' : '\nwritten to bench/results.md\n'}`);
  } finally {
    await Promise.allSettled(servers.map((s) => s.stop()));
    await agent.close();
    await redis.flushdb().catch(() => undefined);
    redis.disconnect();
    await rm(workDir, { recursive: true, force: true });
  }
}

/** The REST adapter rows (bench/rest-rows.ts). */
async function rest(): Promise<void> {
  if (ONLY && !ONLY.some((operation) => REST_OPERATIONS.includes(operation))) return;
  const workDir = await mkdtemp(join(tmpdir(), 'proto-bench-rest-'));
  const agent = await serveAgentProfile();
  try {
    const markdown = await restRows(settings, agent.header, workDir, ONLY);
    if (!ONLY) await writeSection('rest', markdown);
    process.stdout.write(`\n${markdown}\n${ONLY ? '' : '\nwritten to bench/results.md\n'}`);
  } finally {
    await agent.close();
    await rm(workDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (!REST_ONLY) await throughput();
  await rest();
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
