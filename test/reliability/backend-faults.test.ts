/**
 * A flaky merchant backend behind every operation of the table: each adapter method times
 * out, loses its reply, errors, is throttled, crashes or answers garbage (helpers/faulty.ts).
 * The gateway retries what may be retried, within its attempts, then answers a clear 503 with
 * Retry-After (or a business outcome); never a 500, never a stack trace, never a changed
 * resource; a transient fault is invisible to the caller; the idempotency key of a failed
 * request stays usable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationDefinition } from '../../src/capabilities/operation.js';
import { operations } from '../../src/pipeline/table.js';
import { pay } from '../helpers/sandbox-payment.js';
import { checkoutOps, completeCheckout, readyCheckout } from './helpers/checkout-flow.js';
import { reliabilityGateway, type ReliabilityGateway } from './helpers/reliability-gateway.js';
import { everywhere, faulty, FAULTS, type Fault, type FaultyAdapter } from './helpers/faulty.js';
import { problemWith, send, TRANSPORTS, type Answer, type Call, type Transport } from './helpers/operation-client.js';
import { goodPayload, kindOf, resourceKinds, snapshot } from './helpers/resources.js';
import { Tally } from './helpers/tally.js';

/** Three attempts of at most 100 ms each for calls that may be repeated (placeOrder: one). */
const ATTEMPTS = 3;
const BACKEND_CODES = ['backend_unavailable', 'backend_invalid_response'];
const kinds = resourceKinds(operations);
const tally = new Tally('backend faults');

let gw: ReliabilityGateway;
let backend: FaultyAdapter;
let agent: string;

beforeAll(async () => {
  gw = await reliabilityGateway({
    wrapAdapter: (adapter) => (backend = faulty(adapter)),
    // Every call here faults on purpose and the store is back at once after: the circuit, whose
    // pause would refuse those reads (test/tenancy/backend-circuit.test.ts), opens only past them.
    tenant: {
      policies: { allow_loopback_profiles: true, backend: { timeout_ms: 100, attempts: ATTEMPTS, circuit_failures: 1000 } },
    },
  });
  agent = gw.agent('agent');
});
afterAll(async () => {
  tally.set(
    'faults injected',
    Object.values(backend.injected).reduce((a, b) => a + b, 0),
  );
  tally.print();
  await gw?.close();
});

/** A good request of `op` as `agent`, on a fresh resource of its own when it takes an id. */
async function goodCall(op: OperationDefinition, transport: Transport): Promise<Call> {
  const kind = kindOf(kinds, op);
  const id = kind ? await kind.produce(gw, agent) : op.mcp.id ? 'unknown-id' : undefined;
  const payload = goodPayload(op);
  return { op, transport, profile: agent, ...(id !== undefined && { id }), ...(payload && { payload }) };
}

async function exchange(call: Call): Promise<Answer> {
  const answer = await send(gw, call);
  tally.record(answer);
  return answer;
}

const cases = operations.flatMap((op) => TRANSPORTS.map((transport) => ({ op, transport, name: `${op.name} over ${transport}` })));

describe('the good requests these tests send', () => {
  it.each(cases)('$name is served when the backend is healthy', async ({ op, transport }) => {
    backend.setPlan({});
    const answer = await exchange(await goodCall(op, transport));
    expect(problemWith(answer)).toBeUndefined();
    expect(answer.kind, answer.text).not.toBe('transport');
  });
});

describe.each(FAULTS)('every operation with a backend whose every call faults: %s', (fault: Fault) => {
  it('answers 503 with Retry-After or a business outcome, changes nothing, and frees the idempotency key', async () => {
    backend.setPlan({});
    const calls = await Promise.all(
      cases.map(({ op, transport }) =>
        goodCall(op, transport).then((call) => ({ ...call, key: `faulty-${fault}-${op.name}-${transport}` })),
      ),
    );
    const before = await Promise.all(calls.map((call) => watched(call)));

    backend.setPlan(everywhere(fault));
    const answers = await Promise.all(calls.map(exchange));
    backend.setPlan({});

    for (const [i, answer] of answers.entries()) {
      const name = `${calls[i]!.op.name} over ${calls[i]!.transport}`;
      expect(problemWith(answer, BACKEND_CODES), name).toBeUndefined();
      if (answer.status === 503 || answer.code) {
        expect(answer.code, name).toBe(fault === 'garbage' ? 'backend_invalid_response' : 'backend_unavailable');
        if (answer.transport === 'rest') expect(Number(answer.retryAfter), name).toBeGreaterThanOrEqual(1);
        else expect(answer.body.data.retry_after, name).toBeGreaterThanOrEqual(1);
      }
      expect(await watched(calls[i]!), `${name} changed its resource`).toBe(before[i]);
    }
    // Retried with the same key once the store is back: served, not a replay of the failure.
    const retried = await Promise.all(calls.map(exchange));
    for (const [i, answer] of retried.entries()) {
      expect(answer.kind, `${calls[i]!.op.name} over ${calls[i]!.transport}: ${answer.text}`).not.toBe('transport');
    }
  });
});

/** What the owner sees of the call's resource (undefined when it has none). */
async function watched(call: Call): Promise<string | undefined> {
  const kind = kindOf(kinds, call.op);
  return kind && call.id ? snapshot(gw, kind, agent, call.id) : undefined;
}

describe('bounded retries', () => {
  const search = operations.find((op) => op.name === 'search_catalog')!;
  const expected: Record<Fault, { attempts: number; code: string }> = {
    timeout: { attempts: ATTEMPTS, code: 'backend_unavailable' },
    lost_reply: { attempts: ATTEMPTS, code: 'backend_unavailable' },
    error: { attempts: ATTEMPTS, code: 'backend_unavailable' },
    throttle: { attempts: ATTEMPTS, code: 'backend_unavailable' },
    fatal: { attempts: 1, code: 'backend_unavailable' },
    crash: { attempts: 1, code: 'backend_unavailable' },
    garbage: { attempts: 1, code: 'backend_invalid_response' },
  };

  it.each(FAULTS)('%s: the planned number of attempts, then a 503 naming the cause', async (fault) => {
    backend.setPlan({ search: fault });
    const answer = await exchange({ op: search, transport: 'rest', profile: agent, payload: { query: `retry ${fault}` } });
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({ code: expected[fault].code, content: expect.any(String) });
    expect(backend.calls.search).toBe(expected[fault].attempts);
  });
});

describe('garbage from the store', () => {
  it('never reaches a buyer: null, {}, prices as decimal strings and HTML are each a 503', async () => {
    const create = operations.find((op) => op.name === 'create_cart')!;
    backend.setPlan({ quote: 'garbage' });
    for (let turn = 0; turn < 4; turn++) {
      const answer = await exchange({ op: create, transport: 'rest', profile: agent, payload: goodPayload(create) });
      expect(answer.status, answer.text).toBe(503);
      expect(answer.code).toBe('backend_invalid_response');
    }
    expect(backend.injected.garbage).toBeGreaterThanOrEqual(4);
  });
});

describe('never a double order', () => {
  const readCheckout = operations.find((op) => op.name === 'get_checkout')!;

  it.each(FAULTS)(
    'placing the order fails once (%s): retries of the complete end in exactly one order, the one the store has',
    async (fault) => {
      backend.setPlan({});
      const id = await readyCheckout(gw, agent, [{ item: { id: 'bouquet_roses' }, quantity: 2 }]);
      const key = `complete-${fault}`;
      const placedBefore = backend.placed.length;
      backend.setPlan({ placeOrder: [fault] });
      const first = await exchange({ op: checkoutOps.complete!, transport: 'rest', profile: agent, id, key, payload: pay() });
      expect(problemWith(first, BACKEND_CODES)).toBeUndefined();

      // The platform retries with the same key until the checkout is settled; time passes between tries.
      let settled = first;
      for (let attempt = 0; attempt < 10 && settled.body?.status !== 'completed'; attempt++) {
        gw.clock.now += 1_000;
        settled = await exchange({ op: checkoutOps.complete!, transport: 'rest', profile: agent, id, key, payload: pay() });
        expect(problemWith(settled, BACKEND_CODES)).toBeUndefined();
      }
      // What the retries leave in progress, the completion queue settles (a get only reads).
      await gw.app.completions.drain();
      // A second client's complete with another key changes nothing either.
      const other = await completeCheckout(gw, agent, id, `${key}-other`);
      const read = await exchange({ op: readCheckout, transport: 'rest', profile: agent, id });

      const orderIds = new Set([settled, other, read].map((a) => a.body?.order?.id).filter(Boolean));
      const stored = await gw.backend.findOrderByReference(id);
      expect(
        backend.placed.slice(placedBefore).every((reference) => reference === id),
        'every placement carries the checkout as its reference',
      ).toBe(true);
      expect(read.body.status).toBe('completed');
      expect([...orderIds]).toEqual([stored!.orderId]);
      tally.count('completes under faults');
    },
  );
});

describe('transient faults are invisible to the caller', () => {
  it.each(cases)('$name: two failed attempts, then the same answer as a healthy backend', async ({ op, transport }) => {
    backend.setPlan({});
    const healthy = await exchange(await goodCall(op, transport));
    const call = await goodCall(op, transport);
    backend.setPlan(everywhere(['error', 'throttle']));
    const flaky = await exchange(call);
    backend.setPlan({});
    expect(flaky.status, flaky.text).toBe(healthy.status);
    expect(flaky.kind).toBe(healthy.kind);
    const codes = (a: Answer) => (a.body?.messages ?? []).map((m: { code: string }) => m.code);
    expect(codes(flaky)).toEqual(codes(healthy));
  });
});
