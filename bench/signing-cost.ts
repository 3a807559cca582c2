/**
 * Issue 32's signing target: what response signing adds to a whole create_checkout, in bare
 * ES256 signatures of the same run, with the garbage each kind of call makes billed to it.
 *
 * Three measurements of the same three kinds of call (signed create_checkout, unsigned, a bare
 * sign), each alternating the kinds:
 * - CPU time of each call, one call of each kind in turn (interleaved A/B). A scavenge runs in
 *   the call whose allocation fills the young generation, so each kind meets collections in
 *   proportion to the bytes it allocates: this bills garbage to the kind that made it (V8's
 *   background threads bill whichever call is running, in proportion to its time).
 * - Bytes allocated per call, from V8's accounting (GCProfiler), which no machine load moves.
 * - With STAGES_CALLGRIND=1, instructions per call counted by callgrind, collections included.
 *
 * Rounds of thousands of calls of one kind (what bench:stages used until issue 32) do not: a
 * round of 2,000 create_checkouts meets a few collections whose cost is set by the heap that
 * earlier rounds left (the memory store keeps every checkout and idempotency record), so which
 * round a mark-compact lands in moves its average by more than a signature.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GCProfiler, getHeapStatistics } from 'node:v8';

export interface Kinds {
  signed: () => unknown;
  unsigned: () => unknown;
  bare: () => unknown;
}

type Kind = keyof Kinds;
const KINDS: readonly Kind[] = ['signed', 'unsigned', 'bare'];
type PerKind = Record<Kind, number>;

const run = promisify(execFile);

const WARMUP = 300;
const AB_CALLS = Number(process.env.STAGES_AB_CALLS ?? 4000);
const ALLOCATION_CALLS = 1000;
const ALLOCATION_ROUNDS = 7;
const CALLGRIND_CALLS = Number(process.env.STAGES_CALLGRIND_CALLS ?? 600);

/** CPU µs per call of each kind, one call of each in turn (the order rotating), after a warm-up. */
async function interleaved(kinds: Kinds): Promise<PerKind> {
  const totals: PerKind = { signed: 0, unsigned: 0, bare: 0 };
  for (let i = 0; i < AB_CALLS + WARMUP; i++) {
    for (let k = 0; k < KINDS.length; k++) {
      const kind = KINDS[(i + k) % KINDS.length]!;
      const before = process.cpuUsage();
      await kinds[kind]();
      const used = process.cpuUsage(before);
      if (i >= WARMUP) totals[kind] += used.user + used.system;
    }
  }
  return { signed: totals.signed / AB_CALLS, unsigned: totals.unsigned / AB_CALLS, bare: totals.bare / AB_CALLS };
}

/**
 * Bytes allocated on the V8 heap per call: the used heap's growth between the collections
 * GCProfiler reports, summed, plus the growth since the last one. Also the main thread's time
 * in those collections, per call.
 */
async function allocated(call: () => unknown, calls: number): Promise<{ bytes: number; gcMicros: number }> {
  const profiler = new GCProfiler();
  profiler.start();
  let used = getHeapStatistics().used_heap_size;
  for (let i = 0; i < calls; i++) await call();
  const end = getHeapStatistics().used_heap_size;
  let bytes = 0;
  let gcMicros = 0;
  for (const gc of profiler.stop().statistics) {
    bytes += gc.beforeGC.heapStatistics.usedHeapSize - used;
    used = gc.afterGC.heapStatistics.usedHeapSize;
    gcMicros += gc.cost;
  }
  return { bytes: (bytes + end - used) / calls, gcMicros: gcMicros / calls };
}

/** Bytes per call of each kind (median of rounds alternating the kinds), and the run's GC µs per allocated byte. */
async function allocation(kinds: Kinds): Promise<{ bytes: PerKind; gcMicrosPerByte: number }> {
  const rounds: Record<Kind, number[]> = { signed: [], unsigned: [], bare: [] };
  let bytes = 0;
  let gcMicros = 0;
  for (let round = 0; round < ALLOCATION_ROUNDS; round++) {
    for (const kind of KINDS) {
      const measured = await allocated(kinds[kind], ALLOCATION_CALLS);
      rounds[kind].push(measured.bytes);
      bytes += measured.bytes;
      gcMicros += measured.gcMicros;
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return {
    bytes: { signed: median(rounds.signed), unsigned: median(rounds.unsigned), bare: median(rounds.bare) },
    gcMicrosPerByte: gcMicros / bytes,
  };
}

/** Set in callgrind's child: which kind it calls CALLGRIND_CALLS times after warming every kind up (`none`: no calls). */
export const CALLGRIND_KIND = 'STAGES_CALLGRIND_KIND';

export async function callgrindChild(kinds: Kinds): Promise<never> {
  const kind = process.env[CALLGRIND_KIND] as Kind | 'none';
  for (let i = 0; i < WARMUP; i++) for (const k of KINDS) await kinds[k]();
  if (kind !== 'none') for (let i = 0; i < CALLGRIND_CALLS; i++) await kinds[kind]();
  process.exit(0);
}

/**
 * Instructions per call of each kind: callgrind runs this script once per kind, each run warming
 * every kind up alike and then making CALLGRIND_CALLS calls of its kind, and once making none; a
 * kind's run minus the empty one, over the calls, leaves those calls alone (start-up, loading and
 * warm-up cancel). `--single-threaded` keeps V8's collections and compilation on the main thread.
 * One valgrind at a time, some minutes each.
 */
async function instructions(script: string): Promise<PerKind> {
  const dir = await mkdtemp(join(tmpdir(), 'proto-callgrind-'));
  try {
    const total = async (kind: Kind | 'none'): Promise<number> => {
      const out = join(dir, `${kind}.out`);
      await run(
        'valgrind',
        ['--tool=callgrind', '--smc-check=all-non-file', `--callgrind-out-file=${out}`, process.execPath, '--single-threaded', script],
        {
          env: { ...process.env, [CALLGRIND_KIND]: kind },
        },
      );
      const summary = /^(?:summary|totals): (\d+)/m.exec(await readFile(out, 'utf8'));
      if (!summary) throw new Error(`callgrind wrote no instruction total to ${out}`);
      return Number(summary[1]);
    };
    const none = await total('none');
    const perCall = async (kind: Kind) => ((await total(kind)) - none) / CALLGRIND_CALLS;
    return { signed: await perCall('signed'), unsigned: await perCall('unsigned'), bare: await perCall('bare') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const verdict = (ratio: number) => `target ≤ 1.5 ×: ${ratio <= 1.5 ? 'met' : '**not met**'}`;

/** The measurements above as the paragraphs bench:stages writes; `script` is bench:stages itself, for callgrind. */
export async function signingCost(kinds: Kinds, script: string): Promise<string[]> {
  const cpu = await interleaved(kinds);
  const memory = await allocation(kinds);
  const counted = process.env.STAGES_CALLGRIND === '1' ? await instructions(script) : undefined;
  const cpuRatio = (cpu.signed - cpu.unsigned) / cpu.bare;
  const extraBytes = memory.bytes.signed - memory.bytes.unsigned;
  const kb = (bytes: number) => (bytes / 1024).toFixed(1);
  const lines = [
    `**Signing at the cost of one signature** (issue 32). Interleaved A/B (${AB_CALLS} calls of each kind, one of each in turn, ` +
      `CPU time of each call): signed create_checkout ${cpu.signed.toFixed(1)} µs, unsigned ${cpu.unsigned.toFixed(1)} µs, ` +
      `bare ES256 sign ${cpu.bare.toFixed(1)} µs: signing adds ${(cpu.signed - cpu.unsigned).toFixed(1)} µs, ` +
      `**${cpuRatio.toFixed(2)} ×** one signature (${verdict(cpuRatio)}), ` +
      `${((cpu.signed / cpu.unsigned - 1) * 100).toFixed(1)} % of the unsigned request.`,
    '',
    `Garbage (V8 heap bytes allocated per call, median of ${ALLOCATION_ROUNDS} rounds of ${ALLOCATION_CALLS} alternating the kinds): ` +
      `signed ${kb(memory.bytes.signed)} KB, unsigned ${kb(memory.bytes.unsigned)} KB, bare sign ${kb(memory.bytes.bare)} KB; ` +
      `signing allocates ${kb(extraBytes)} KB more. Billed at this run's average collection time per allocated byte ` +
      `(${(memory.gcMicrosPerByte * 1024).toFixed(3)} µs per KB, an upper bound: a scavenge costs what survives it, not what dies), ` +
      `that is ${(extraBytes * memory.gcMicrosPerByte).toFixed(1)} µs per signed call, ` +
      `${((extraBytes * memory.gcMicrosPerByte) / cpu.bare).toFixed(2)} × a signature: the interleaved figure already bills it ` +
      `(a scavenge runs in the call whose allocation fills the young generation).`,
  ];
  if (counted) {
    const ratio = (counted.signed - counted.unsigned) / counted.bare;
    const k = (n: number) => `${Math.round(n / 1000).toLocaleString('en')} k`;
    lines.push(
      '',
      `Callgrind (instructions per call: a run of ${WARMUP} warm-up calls of each kind then ${CALLGRIND_CALLS} of one kind, ` +
        `minus a run of the warm-up alone; \`node --single-threaded\`, collections included): signed ${k(counted.signed)}, ` +
        `unsigned ${k(counted.unsigned)}, bare sign ${k(counted.bare)}: signing adds ${k(counted.signed - counted.unsigned)}, ` +
        `**${ratio.toFixed(2)} ×** one signature (${verdict(ratio)}). Not yet decisive: a run of ${CALLGRIND_CALLS} calls meets a ` +
        'major collection of the heap the memory store keeps or does not, which moves this figure by a signature or more ' +
        "(callgrind_annotate of the two runs tells node's crypto from V8's marking); and valgrind's CPU has no SHA " +
        'extensions, so the Content-Digest counts several times what it costs on the machine.',
    );
  } else {
    lines.push('', 'STAGES_CALLGRIND=1 adds the same figure in instructions counted by callgrind (some minutes per kind of call).');
  }
  return lines;
}
