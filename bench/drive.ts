/**
 * One autocannon measurement: a warm-up that is thrown away, then the measured run. Writes get a
 * fresh Request-Id and Idempotency-Key per request, so the gateway executes each one instead of
 * replaying the first answer.
 *
 * The warm-up lasts its seconds and at least WARMUP_REQUESTS requests: every gateway measurement
 * meets a fresh process (processes.ts), and V8 keeps compiling its request path for thousands of
 * requests (--trace-opt, create_checkout: 12-18 TurboFan compilations per thousand requests up to
 * the 5,000th), while a busy machine answers a few hundred in 3 s. Around the 10,500th, TurboFan
 * inlines the demo quote's `lines.map`, whose result then has a holey map instead of a packed one,
 * and every consumer deoptimizes once ("wrong map") and is compiled again: 12,000 puts that wave
 * inside the warm-up. A production gateway has long served that many; a cold one measured its
 * compilations into the row.
 */
import autocannon from 'autocannon';
import type { ServerProcess } from './processes.js';

export interface Call {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Each request carries its own Request-Id and Idempotency-Key. */
  unique?: boolean;
}

export interface Measurement {
  requests: number;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  /** Non-2xx answers and socket errors: a benchmark of failures measures nothing. */
  failures: number;
  /** Server CPU per answered request, in microseconds. */
  cpuMicros: number;
}

export interface DriveSettings {
  seconds: number;
  warmupSeconds: number;
  connections: number;
}

/** BENCH_WARMUP_REQUESTS: the fewest requests a warm-up sends, however long they take. */
export const WARMUP_REQUESTS = Number(process.env.BENCH_WARMUP_REQUESTS ?? 12_000);

let sequence = 0;

/** `length`: seconds, or `{ amount }` requests. */
function run(server: ServerProcess, call: Call, length: number | { amount: number }, connections: number): Promise<autocannon.Result> {
  const headers = { ...(call.body !== undefined && { 'content-type': 'application/json' }), ...call.headers };
  return autocannon({
    url: server.origin,
    connections,
    ...(typeof length === 'number' ? { duration: length } : length),
    requests: [
      {
        method: call.method,
        path: call.path,
        headers,
        ...(call.body !== undefined && { body: JSON.stringify(call.body) }),
        ...(call.unique && {
          setupRequest: (request: autocannon.Request) => {
            const id = `bench-${process.pid}-${++sequence}`;
            return { ...request, headers: { ...headers, 'request-id': id, 'idempotency-key': id } };
          },
        }),
      },
    ],
  });
}

/** `beforeMeasured` runs between the warm-up and the measured run (resetting a counter, say). */
export async function measure(
  server: ServerProcess,
  call: Call,
  settings: DriveSettings,
  beforeMeasured?: () => Promise<unknown>,
): Promise<Measurement> {
  const warm = await run(server, call, settings.warmupSeconds, settings.connections);
  const short = WARMUP_REQUESTS - warm.requests.total;
  // autocannon refuses an amount below its connections: a top-up is at least one request per connection.
  if (short > 0) await run(server, call, { amount: Math.max(short, settings.connections) }, settings.connections);
  await beforeMeasured?.();
  const cpuBefore = server.cpuSeconds();
  const result = await run(server, call, settings.seconds, settings.connections);
  const cpu = server.cpuSeconds() - cpuBefore;
  const answered = result.requests.total;
  return {
    requests: answered,
    reqPerSec: answered / settings.seconds,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
    cpuMicros: answered > 0 ? (cpu * 1e6) / answered : 0,
  };
}
