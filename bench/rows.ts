/**
 * The demo-store rows that `npm run bench` measures and `npm run bench:compare` compares: each an
 * operation on one gateway set-up (memory store, Redis store, or memory with response signing),
 * against the bare baseline call it is divided by, with the targets (issue 19).
 */
import { CALLS } from './calls.js';
import type { Call } from './drive.js';
import type { ServerProcess } from './processes.js';

const ECHO: Call = { method: 'POST', path: '/echo', body: { padding: 'x'.repeat(1000) } };
export const BARE_GET: Call = { method: 'GET', path: '/bare' };

export type GatewayName = 'memory' | 'redis' | 'signing';

export interface Row {
  operation: string;
  gateway: GatewayName;
  baseline: Call;
  /** Minimum CPU ratio to the baseline, when the issue sets one. */
  target?: number;
  /** Highest p99 latency at the bench's connections: 10 ms for reads, 20 ms for checkout writes. */
  p99TargetMs: number;
  call(agent: string, gateway: ServerProcess): Promise<Call>;
}

const rows: Row[] = [
  { operation: 'discovery', gateway: 'memory', baseline: BARE_GET, target: 0.5, p99TargetMs: 10, call: CALLS.discovery },
  { operation: 'search_catalog', gateway: 'memory', baseline: ECHO, target: 0.5, p99TargetMs: 10, call: CALLS.search_catalog },
  { operation: 'get_product', gateway: 'memory', baseline: ECHO, target: 0.4, p99TargetMs: 10, call: CALLS.get_product },
  { operation: 'create_cart', gateway: 'memory', baseline: ECHO, p99TargetMs: 20, call: CALLS.create_cart },
  // Signing on create_checkout too: every answer differs, so each one costs a signature.
  ...(['memory', 'signing', 'redis'] as const).map((gateway): Row => ({
    operation: 'create_checkout',
    gateway,
    baseline: ECHO,
    ...(gateway !== 'signing' && { target: 0.25 }),
    p99TargetMs: 20,
    call: CALLS.create_checkout,
  })),
  ...(['memory', 'signing'] as const).map((gateway): Row => ({
    operation: 'get_checkout',
    gateway,
    baseline: ECHO,
    p99TargetMs: 10,
    call: CALLS.get_checkout,
  })),
];

/** BENCH_ONLY=search_catalog,get_product: those operations' rows only. */
export const selectedRows = (only: readonly string[] | undefined): Row[] => rows.filter((r) => !only || only.includes(r.operation));
