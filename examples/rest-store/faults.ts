/**
 * What tests and benchmarks do to the reference store: a latency added to every API call, faults
 * for the next calls (throttling, errors, garbage, a hang), a count of API calls per route, and
 * the store's own time per call (so a benchmark can tell the gateway's share of a latency).
 */
import type { FastifyReply } from 'fastify';

export type FaultMode = 'throttle' | 'error' | 'html' | 'garbage' | 'wrong_shape' | 'hang';

export interface Fault {
  mode: FaultMode;
  /** How many calls get it. */
  count: number;
  retryAfterSeconds?: number;
}

export class Faults {
  latencyMs: number;
  private queue: Fault[] = [];
  private readonly calls = new Map<string, number>();
  /** How long each API call took the store (ms, its latency included), since the last reset. */
  private timings: number[] = [];
  private readonly hung = new Set<FastifyReply>();

  constructor(latencyMs: number) {
    this.latencyMs = latencyMs;
  }

  inject(fault: Fault): void {
    this.queue.push({ ...fault });
  }

  clear(): void {
    this.queue = [];
  }

  count(route: string): void {
    this.calls.set(route, (this.calls.get(route) ?? 0) + 1);
  }

  /** Calls per "METHOD /route" since the last reset. */
  counts(): Record<string, number> {
    return Object.fromEntries(this.calls);
  }

  resetCounts(): void {
    this.calls.clear();
    this.timings = [];
  }

  time(ms: number): void {
    if (this.timings.length < 1_000_000) this.timings.push(ms);
  }

  /** The store's own latency over the calls since the last reset. */
  latency(): { calls: number; p50Ms: number; p99Ms: number } {
    const sorted = [...this.timings].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
    return { calls: sorted.length, p50Ms: at(0.5), p99Ms: at(0.99) };
  }

  /** Answers the call with the next fault, if one is due; true when it did. */
  answer(reply: FastifyReply): boolean {
    const fault = this.queue[0];
    if (!fault) return false;
    if (--fault.count <= 0) this.queue.shift();
    switch (fault.mode) {
      case 'throttle':
        void reply
          .code(429)
          .header('retry-after', String(fault.retryAfterSeconds ?? 1))
          .send({ error: { code: 'rate_limited', message: 'slow down' } });
        break;
      case 'error':
        void reply.code(500).send({ error: { code: 'internal', message: 'something broke' } });
        break;
      case 'html':
        void reply.code(502).type('text/html').send('<html><body><h1>502 Bad Gateway</h1><p>nginx</p></body></html>');
        break;
      case 'garbage':
        void reply.code(200).type('application/json').send('{"data": [{"item_id": ');
        break;
      case 'wrong_shape':
        void reply.code(200).send({ unexpected: 'shape', data: 'not a list' });
        break;
      case 'hang':
        // Never answered; the socket closes when the client gives up or the store stops.
        reply.hijack();
        this.hung.add(reply);
        reply.raw.once('close', () => this.hung.delete(reply));
        break;
    }
    return true;
  }

  /** Drops hung calls (shutdown). */
  release(): void {
    for (const reply of this.hung) reply.raw.destroy();
    this.hung.clear();
  }
}
