/**
 * Measuring one operation through the gateway: each request's total time at the client, and what
 * the gateway's process saw of it (gateway.ts): its store calls, the time from its arrival to its
 * answer written and the time in between with a store call under way (StoreProbe); gateway-added
 * = that span − store time, all on the gateway's clock, so the bench process's own work (its
 * client, the simulated stores it also runs, its scheduling on a shared machine) is not counted
 * as the gateway's. Sequentially (one request at a time) or at a fixed rate (requests started on
 * a schedule, whatever is still in flight: the load a moderately busy tenant puts on the gateway).
 */
import { randomUUID } from 'node:crypto';
import type { GatewayClient, Operation, Send } from './scenario.js';
import type { BenchGateway } from './gateway.js';
import { storeTime, type StoreCall } from './store-probe.js';
import type { Target } from './targets.js';

export interface Sample {
  /** Sent to answered, at the client. */
  totalMs: number;
  /** Arrival to answer written, in the gateway (the client's total when the gateway runs in this process). */
  gatewayMs: number;
  storeMs: number;
  /** The gateway process's CPU time while it served the request (NaN in-process). */
  cpuMs: number;
  calls: StoreCall[];
}

/** Where a request's store calls are read. */
type Seen = Pick<BenchGateway, 'seen'>;

export const addedMs = (s: Sample) => s.gatewayMs - s.storeMs;
/** The same from the client's side: also counts the client, loopback, and waiting for the gateway's event loop to read the request. */
export const addedAtClientMs = (s: Sample) => s.totalMs - s.storeMs;

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

async function timed(gateway: Seen, send: Send): Promise<Sample> {
  const id = randomUUID();
  const started = performance.now();
  await send(id);
  const ended = performance.now();
  const { calls, arrived = started, finished = ended, cpuMs = NaN } = await gateway.seen(id);
  return { totalMs: ended - started, gatewayMs: finished - arrived, storeMs: storeTime(calls, finished), cpuMs, calls };
}

/** `count` requests one after the other, each after its own unmeasured setup. */
export async function sequential(client: GatewayClient, gateway: Seen, op: Operation, count: number): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (let i = 0; i < count; i++) samples.push(await timed(gateway, await op.prepare(client, i)));
  return samples;
}

/**
 * A repeatable operation sent `rate` times a second for `seconds`, on schedule (open loop). A
 * store that cannot keep up (real Medusa on two shared cores) makes requests fail: they are
 * counted, not measured, so the row still says what the rate did.
 */
export async function atRate(
  client: GatewayClient,
  gateway: Seen,
  op: Operation,
  rate: number,
  seconds: number,
): Promise<{ samples: Sample[]; failed: number }> {
  const send = await op.prepare(client, 0);
  const total = Math.max(1, Math.round(rate * seconds));
  const start = performance.now();
  const pending: Array<Promise<Sample | undefined>> = [];
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    pending.push(timed(gateway, send).catch(() => undefined));
  }
  const settled = await Promise.all(pending);
  const samples = settled.filter((s): s is Sample => s !== undefined);
  return { samples, failed: settled.length - samples.length };
}

/** One request of `op` and the names of the store calls it made (the store's own names where it has them). */
export async function namedCalls(client: GatewayClient, gateway: Seen, op: Operation, target: Pick<Target, 'callNames'>) {
  const send = await op.prepare(client, 0);
  target.callNames?.();
  const [sample] = await sequential(client, gateway, { ...op, prepare: async () => send }, 1);
  const names = target.callNames?.();
  const probed = sample!.calls.map((c) => c.label);
  // Both count the same calls, or the probe missed one (or saw one that is not the store's).
  if (names && names.length !== probed.length)
    throw new Error(`${op.name}: the store saw ${names.join(', ')}, the probe ${probed.join(', ')}`);
  return names ?? probed;
}
