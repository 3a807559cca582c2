/**
 * `npm run bench:compare -- <commitA> <commitB>`: the bench rows against two commits on this
 * machine, in one run, so that a change that costs more than 5 % is seen before it lands. Each
 * commit is checked out in a temporary worktree (`git worktree add --detach`) and built there;
 * every row then measures the baseline, then A and B one after the other (the order swapped every
 * round), so both sides meet the same machine. A row's figure is its CPU ratio (baseline CPU µs
 * per request over the gateway's; the steadier figure on a shared machine), median of the rounds;
 * the change is B's over A's. BENCH_ONLY, BENCH_SECONDS, BENCH_WARMUP_SECONDS, BENCH_CONNECTIONS
 * and BENCH_ROUNDS work as for `npm run bench`.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { serveAgentProfile } from './agent-profile.js';
import { send } from './calls.js';
import { measure, type DriveSettings, type Measurement } from './drive.js';
import { REDIS_URL, rowGateway, startBaseline, withGateway, type ServerProcess } from './processes.js';
import { selectedRows, type GatewayName, type Row } from './rows.js';

const run = promisify(execFile);

const settings: DriveSettings = {
  seconds: Number(process.env.BENCH_SECONDS ?? 5),
  warmupSeconds: Number(process.env.BENCH_WARMUP_SECONDS ?? 2),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
};
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ONLY = process.env.BENCH_ONLY?.split(',');
/** A change of a row's CPU ratio worse than this is flagged. */
const REGRESSION = 0.05;

interface Side {
  label: string;
  commit: string;
  root: string;
}

const git = async (...args: string[]) => (await run('git', args, { maxBuffer: 16 << 20 })).stdout.trim();

/** Checks `ref` out in a temporary worktree (added to `sides` at once, so it is removed whatever happens next). */
async function checkout(label: string, ref: string, parent: string, sides: Side[]): Promise<Side> {
  const commit = await git('rev-parse', '--verify', `${ref}^{commit}`);
  const root = join(parent, label);
  process.stdout.write(`${label}: ${ref} (${commit.slice(0, 12)}) in ${root}\n`);
  await git('worktree', 'add', '--detach', root, commit);
  const side = { label, commit, root };
  sides.push(side);
  return side;
}

/**
 * Builds a checked-out commit: with this checkout's packages when its lock file is the same, else
 * with its own (`npm ci` on this Node), since older code may not compile against newer majors.
 */
async function build(side: Side): Promise<void> {
  const ownLock = await readFile(join(side.root, 'package-lock.json'), 'utf8');
  if (ownLock === (await readFile('package-lock.json', 'utf8'))) {
    await symlink(resolve('node_modules'), join(side.root, 'node_modules'), 'dir');
  } else {
    process.stdout.write(`${side.label}: other packages than this checkout's, installing them…\n`);
    const path = `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`;
    await run('npm', ['ci', '--no-audit', '--no-fund'], { cwd: side.root, env: { ...process.env, PATH: path }, maxBuffer: 64 << 20 });
  }
  process.stdout.write(`${side.label}: building…\n`);
  await run(process.execPath, [join(side.root, 'node_modules/typescript/bin/tsc'), '-b', join(side.root, 'tsconfig.build.json')], {
    cwd: side.root,
    maxBuffer: 16 << 20,
  });
}

const cpuRatio = (base: Measurement, gateway: Measurement) => base.cpuMicros / gateway.cpuMicros;
function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = sorted.length / 2;
  return Number.isInteger(middle) ? (sorted[middle - 1]! + sorted[middle]!) / 2 : sorted[Math.floor(middle)]!;
}
const fixed = (n: number, digits = 3) => n.toFixed(digits);

async function compare(a: Side, b: Side, workDir: string): Promise<string> {
  const redis = new Redis(REDIS_URL);
  await redis.flushdb();
  const agent = await serveAgentProfile();
  const servers: ServerProcess[] = [];
  try {
    const baseline = await startBaseline();
    servers.push(baseline);
    const selected = selectedRows(ONLY);
    // A gateway of its own for every measurement (bench/processes.ts withGateway): no side meets a heap the other rows left.
    const gateway = (side: Side, name: GatewayName) => ({
      ...rowGateway(name, workDir, REDIS_URL, side.root),
      name: `${side.label}-${name}`,
    });

    const ratios = new Map<Row, { a: number[]; b: number[]; p99a: number[]; p99b: number[] }>(
      selected.map((r) => [r, { a: [], b: [], p99a: [], p99b: [] }]),
    );
    for (let round = 1; round <= ROUNDS; round++) {
      for (const row of selected) {
        const order = round % 2 === 1 ? [a, b] : [b, a];
        for (const side of order) {
          const base = await measure(baseline, row.baseline, settings);
          const measured = await withGateway(gateway(side, row.gateway), async (server) => {
            const call = await row.call(agent.header, server);
            await send(server, call, row.operation);
            return measure(server, call, settings);
          });
          if (measured.failures > 0 || base.failures > 0)
            throw new Error(`${row.operation} (${side.label}): ${measured.failures} failed requests`);
          const entry = ratios.get(row)!;
          (side === a ? entry.a : entry.b).push(cpuRatio(base, measured));
          (side === a ? entry.p99a : entry.p99b).push(measured.p99Ms);
          process.stdout.write(
            `[${round}/${ROUNDS}] ${row.operation} (${row.gateway}) ${side.label}: ` +
              `${Math.round(measured.cpuMicros)} µs/req, baseline ${Math.round(base.cpuMicros)} µs/req, CPU ratio ` +
              `${fixed(cpuRatio(base, measured))}\n`,
          );
        }
      }
    }

    const regressions: string[] = [];
    const lines = selected.map((row) => {
      const entry = ratios.get(row)!;
      const ra = median(entry.a);
      const rb = median(entry.b);
      const change = rb / ra - 1;
      const flag = change < -REGRESSION ? '**regression**' : change > REGRESSION ? 'faster' : 'same (within 5 %)';
      if (change < -REGRESSION) regressions.push(`${row.operation} (${row.gateway}) ${fixed(change * 100, 1)} %`);
      return (
        `| ${row.operation} | ${row.gateway} | ${fixed(ra)} | ${fixed(rb)} | ` +
        `${change >= 0 ? '+' : ''}${fixed(change * 100, 1)} % | ${median(entry.p99a)} / ${median(entry.p99b)} ` +
        `| ${flag} |`
      );
    });
    return [
      `A = ${a.commit.slice(0, 12)}, B = ${b.commit.slice(0, 12)}; ${ROUNDS} rounds, ` +
        `${settings.warmupSeconds} s warm-up then ${settings.seconds} s per measurement, ` +
        `${settings.connections} connections; load average ${loadavg()
          .map((l) => l.toFixed(1))
          .join(', ')} on ${cpus().length} cores.`,
      "CPU ratio: the baseline's CPU µs per request over the gateway's, each gateway measured right after its own baseline run " +
        '(median of the rounds); change: B over A (positive: B spends less CPU per request).',
      '',
      '| operation | gateway | CPU ratio A | CPU ratio B | change | p99 ms A / B | verdict |',
      '|---|---|---:|---:|---:|---|---|',
      ...lines,
      '',
      regressions.length === 0 ? 'No row costs more than 5 % more CPU on B.' : `Regressions over 5 %: ${regressions.join('; ')}.`,
    ].join('\n');
  } finally {
    await Promise.allSettled(servers.map((s) => s.stop()));
    await agent.close();
    await redis.flushdb().catch(() => undefined);
    redis.disconnect();
  }
}

async function main(): Promise<void> {
  const [refA, refB] = process.argv.slice(2);
  if (!refA || !refB) {
    process.stderr.write('usage: npm run bench:compare -- <commitA> <commitB>   (e.g. main HEAD)\n');
    process.exit(2);
  }
  const parent = await mkdtemp(join(tmpdir(), 'proto-compare-'));
  const sides: Side[] = [];
  try {
    const a = await checkout('A', refA, parent, sides);
    const b = await checkout('B', refB, parent, sides);
    await build(a);
    await build(b);
    const report = await compare(a, b, parent);
    process.stdout.write(`\n${report}\n`);
    if (process.env.BENCH_COMPARE_OUT) await writeFile(process.env.BENCH_COMPARE_OUT, `${report}\n`);
  } finally {
    for (const side of sides) await git('worktree', 'remove', '--force', side.root).catch(() => undefined);
    await git('worktree', 'prune').catch(() => undefined);
    await rm(parent, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:compare failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
