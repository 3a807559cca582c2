/**
 * Hostile agents against every operation of the table, over REST and MCP: payloads generated
 * from each operation's input schema (valid, mutated, or anything at all), odd ids, malformed
 * protocol headers, bodies that are not JSON, and broken MCP arguments. Every answer must be a
 * well-formed 4xx or a business outcome (or a success), never a 5xx, a stack trace or a hang;
 * and a resource changes only when its owner's request succeeded.
 *
 * `npm test` runs a fixed seed; `npm run fuzz` many more runs with a random seed (printed).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationDefinition } from '../../src/capabilities/operation.js';
import { operations } from '../../src/pipeline/table.js';
import { toolArgumentsSchema } from '../../src/transports/mcp/tools.js';
import { DEMO_WORDS, reliabilityGateway, type ReliabilityGateway } from './helpers/reliability-gateway.js';
import { fuzz } from './helpers/fuzz-settings.js';
import { installNetworkTripwire, type Tripwire } from './helpers/network-tripwire.js';
import { problemWith, send, TRANSPORTS, type Answer, type Call, type Transport } from './helpers/operation-client.js';
import { kindOf, resourceKinds, snapshot, type ResourceKind } from './helpers/resources.js';
import { hostile, mutated, payloads } from './helpers/schema-arbitrary.js';
import { Tally } from './helpers/tally.js';

let gw: ReliabilityGateway;
let tripwire: Tripwire;
let owner: string;
let stranger: string;
const tally = new Tally('fuzz');
const kinds = resourceKinds(operations);
/** The owner's current resource of each kind (recreated when a fuzzed request ended it). */
const owned = new Map<ResourceKind, string>();

beforeAll(async () => {
  tripwire = installNetworkTripwire();
  gw = await reliabilityGateway();
  owner = gw.agent('owner');
  stranger = gw.agent('stranger');
  console.log(`[reliability] fuzz seed ${fuzz.seed}, ${fuzz.runs()} runs per property (replay: FUZZ_SEED=${fuzz.seed})`);
});
afterAll(async () => {
  tally.set('seed', fuzz.seed);
  tally.print();
  await gw?.close();
  tripwire.uninstall();
});

const words = { words: DEMO_WORDS };
const OWN = Symbol('own resource');
/** Statuses after which a resource takes no more changes: fuzzing goes on with a new one. */
const ENDED = new Set(['completed', 'canceled']);

/** The owner's live resource of `kind`: the one it had, or a new one (as far along as it goes) when that one ended. */
async function liveResource(kind: ResourceKind): Promise<{ id: string; before: string }> {
  const id = owned.get(kind);
  if (id !== undefined) {
    const before = await snapshot(gw, kind, owner, id);
    const [, answerKind, body] = JSON.parse(before);
    if (answerKind === 'success' && !ENDED.has(body.status)) return { id, before };
  }
  const fresh = await (kind.produceReady ?? kind.produce)(gw, owner);
  owned.set(kind, fresh);
  return { id: fresh, before: await snapshot(gw, kind, owner, fresh) };
}

/**
 * Sends `call`, checks the answer is well-formed, and, when it targets the owner's resource,
 * that the resource changed only if the owner's request succeeded.
 */
async function exchange(
  op: OperationDefinition,
  build: (target: { id?: string; profile: string }) => Call,
  target: { own: boolean; actor: 'owner' | 'stranger'; id?: string },
): Promise<Answer> {
  const kind = kindOf(kinds, op);
  const profile = target.actor === 'owner' ? owner : stranger;
  const resource = target.own && kind ? await liveResource(kind) : undefined;
  const id = resource?.id ?? target.id;
  const call = build({ ...(id !== undefined && { id }), profile });
  // Signed as the agents sign (authenticated platforms), unless the test fuzzes the signature headers themselves.
  const answer = await send(call.headers ? gw.app : gw, call);
  tally.record(answer);
  const problem = problemWith(answer);
  if (problem) throw new Error(`${op.name} over ${answer.transport}: ${problem}`);
  if (resource && kind) {
    const after = await snapshot(gw, kind, owner, resource.id);
    if (target.actor === 'stranger') {
      expect(answer.kind, 'a stranger never succeeds on the owner resource').not.toBe('success');
      expect(after, `a stranger's ${op.name} changed the owner's resource`).toBe(resource.before);
    } else if (answer.kind !== 'success') {
      expect(after, `a refused ${op.name} changed the resource`).toBe(resource.before);
    }
  }
  return answer;
}

const idArb = fc.oneof(
  { arbitrary: fc.constant<typeof OWN>(OWN), weight: 4 },
  { arbitrary: fc.string({ maxLength: 40 }), weight: 1 },
  { arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 300 }), weight: 1 },
  {
    arbitrary: fc.constantFrom('cart_', 'cart_AAAAAAAAAAAAAAAAAAAAAA', '..', '%2e%2e', 'null', '0', '-1', '\u0000', 'a/b', 'x'.repeat(201)),
    weight: 1,
  },
);
const actorArb = fc.constantFrom<'owner' | 'stranger'>('owner', 'owner', 'stranger');
const keyArb = fc.option(fc.oneof(fc.uuid(), fc.string({ maxLength: 300 }), fc.constantFrom('', ' ', 'k'.repeat(256), 'ключ', 'a\tb')), {
  nil: undefined,
});

const idOps = (op: OperationDefinition) => op.mcp.id;
const targetOf = (op: OperationDefinition, id: string | typeof OWN, actor: 'owner' | 'stranger') =>
  idOps(op) ? (id === OWN ? { own: true, actor } : { own: false, actor, id }) : { own: false, actor };

describe.each(operations.map((op) => [op.name, op] as const))('%s', (_name, op) => {
  it.each(TRANSPORTS)(
    'answers generated payloads, ids, keys and callers over %s with a 4xx or an outcome',
    async (transport: Transport) => {
      await fc.assert(
        fc.asyncProperty(payloads(op.input, words), idArb, actorArb, keyArb, async (payload, id, actor, key) => {
          await exchange(op, (t) => ({ op, transport, ...t, payload, ...(key !== undefined && { key }) }), targetOf(op, id, actor));
        }),
        fuzz.params(),
      );
    },
    fuzz.testTimeout(),
  );

  it(
    'answers malformed protocol headers (REST) with a 4xx or an outcome',
    async () => {
      const headers = fc.record(
        {
          'proto-agent': agentHeaderArb,
          'idempotency-key': headerValueArb(['', ' ', 'k'.repeat(256), 'a b']),
          'request-id': headerValueArb(['', ' ', 'r'.repeat(201)]),
          'signature-input': headerValueArb([
            'sig1=("@method");created=1',
            'sig1=',
            '(((',
            'sig1=("@authority" "content-digest");keyid="nope";alg="rsa-v1_5-sha1"',
            'sig1=();expires=1',
          ]),
          signature: headerValueArb(['sig1=:AAAA:', 'sig1=:!!!:', 'sig1=', 'sig2=:aGVsbG8=:']),
          'content-digest': headerValueArb(['sha-256=:AAAA:', 'sha-512=:x:', 'md5=:AAAA:', 'sha-256=AAAA']),
          'content-type': fc.constantFrom(
            'application/json',
            'application/json; charset=latin1',
            'text/plain',
            'application/x-www-form-urlencoded',
            'application/vnd.api+json',
            'application/json;;;',
            undefined,
          ),
          authorization: headerValueArb(['Bearer', 'Bearer x.y.z', 'Basic Zm9vOmJhcg==']),
          'x-api-key': headerValueArb(['', 'k'.repeat(1000)]),
        },
        { requiredKeys: [] },
      );
      await fc.assert(
        fc.asyncProperty(
          headers,
          fc.option(mutated(op.input ?? {}, words), { nil: undefined }),
          actorArb,
          async (overrides, payload, actor) => {
            await exchange(
              op,
              (t) => ({ op, transport: 'rest', ...t, headers: overrides, ...(payload !== undefined && { payload }) }),
              targetOf(op, OWN, actor),
            );
          },
        ),
        fuzz.params(),
      );
    },
    fuzz.testTimeout(),
  );

  it(
    'answers broken MCP arguments and meta with a JSON-RPC error or an outcome',
    async () => {
      const args = fc.oneof(
        { arbitrary: mutated(toolArgumentsSchema(op) as Record<string, unknown>, words), weight: 3 },
        { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 1 },
        { arbitrary: hostile, weight: 1 },
      );
      await fc.assert(
        fc.asyncProperty(args, metaArb, actorArb, async (generated, meta, actor) => {
          // Keep the generated arguments, but point meta at a real caller (or a broken meta), never at a host on the network.
          await exchange(
            op,
            (t) => {
              const base = generated !== null && typeof generated === 'object' && !Array.isArray(generated) ? { ...generated } : generated;
              const args =
                base !== null && typeof base === 'object' && !Array.isArray(base)
                  ? { ...base, meta: meta ?? { 'proto-agent': { profile: t.profile } }, ...(t.id !== undefined && { id: t.id }) }
                  : base;
              return { op, transport: 'mcp', profile: t.profile, args };
            },
            targetOf(op, OWN, actor),
          );
        }),
        fuzz.params(0.5),
      );
    },
    fuzz.testTimeout(0.5),
  );
});

/** Operations that take a body on REST. */
const writes = operations.filter((op) => op.rest.method !== 'GET');

describe.each(writes.map((op) => [op.name, op] as const))('%s', (_name, op) => {
  it(
    'answers bodies that are not JSON (REST) with a 4xx',
    async () => {
      await fc.assert(
        fc.asyncProperty(rawBodyArb(op), actorArb, async (rawBody, actor) => {
          const answer = await exchange(op, (t) => ({ op, transport: 'rest', ...t, rawBody }), targetOf(op, OWN, actor));
          if (answer.kind === 'success' && answer.replayed) throw new Error('a raw body replayed another request');
        }),
        fuzz.params(0.5),
      );
    },
    fuzz.testTimeout(0.5),
  );
});

describe('the MCP endpoint itself', () => {
  it(
    'answers any JSON-RPC body with a JSON-RPC error or a result, never a 5xx',
    async () => {
      const rpc = fc.oneof(
        fc.jsonValue({ maxDepth: 3 }),
        fc.record(
          {
            jsonrpc: fc.constantFrom('2.0', '1.0', 2),
            id: fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.object()),
            method: fc.oneof(fc.constantFrom('tools/call', 'tools/list', 'initialize', 'ping', 'resources/list', ''), fc.string()),
            params: fc.jsonValue({ maxDepth: 3 }),
          },
          { requiredKeys: [] },
        ),
        fc.array(fc.record({ jsonrpc: fc.constant('2.0'), id: fc.nat(), method: fc.constant('tools/list') }), { maxLength: 5 }),
      );
      await fc.assert(
        fc.asyncProperty(rpc, async (body) => {
          const res = await gw.app.inject({
            method: 'POST',
            url: '/mcp',
            headers: { 'content-type': 'application/json', accept: 'application/json' },
            payload: JSON.stringify(body),
          });
          tally.record({ status: res.statusCode, kind: 'transport' });
          expect(res.statusCode, res.body).toBeLessThan(500);
          if (res.body !== '') expect(() => JSON.parse(res.body), res.body).not.toThrow();
        }),
        fuzz.params(),
      );
    },
    fuzz.testTimeout(),
  );
});

describe('nothing leaves loopback', () => {
  it('no fuzzed request made the gateway connect anywhere but loopback', () => {
    expect(tripwire.tripped).toEqual([]);
  });
});

// ---------------------------------------------------------------- generators

/** A header value: one of `edges`, any printable or control-laden ASCII text, or the header dropped (undefined). */
function headerValueArb(edges: string[]): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    fc.constantFrom(...edges),
    fc.string({ unit: 'grapheme-ascii', maxLength: 80 }),
    fc.string({ unit: 'binary-ascii', maxLength: 20 }),
    fc.constant(undefined),
  );
}

/** PROTO-Agent values that never name a host off this machine. */
const agentHeaderArb: fc.Arbitrary<string | undefined> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    'profile',
    'profile=',
    'profile=""',
    'profile=?1',
    'profile=1',
    'profile=:aGk=:',
    'profile="not a url"',
    'profile="http://shop.example/p"',
    'profile="ftp://127.0.0.1/p"',
    'profile="https://127.0.0.1:1/p"',
    'profile="http://127.0.0.1:1/p"',
    'profile="http://[::1]:1/p"',
    'profile="https://user:pw@127.0.0.1/p"',
    `profile="${'a'.repeat(5000)}"`,
    'a=(1 2), profile',
    'profile=("x" "y")',
  ),
  fc.string({ unit: 'grapheme-ascii', maxLength: 60 }),
  fc.constant(undefined),
);

/** MCP meta: absent (the caller's own), or broken in shape or value. */
const metaArb: fc.Arbitrary<unknown> = fc.option(
  fc.oneof(
    fc.constantFrom(
      null,
      'profile',
      [],
      {},
      { 'proto-agent': 'https://127.0.0.1:1/p' },
      { 'proto-agent': {} },
      { 'proto-agent': { profile: 42 } },
      { 'proto-agent': { profile: 'not a url' } },
      { 'proto-agent': { profile: 'http://shop.example/p' } },
    ),
    fc.record(
      {
        'proto-agent': fc.record({ profile: fc.string({ maxLength: 30 }) }),
        'idempotency-key': fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
        'request-id': fc.oneof(fc.string(), fc.integer()),
      },
      { requiredKeys: ['proto-agent'] },
    ),
  ),
  { nil: undefined, freq: 2 },
);

/** Bodies a JSON endpoint can receive that are not a JSON value of the right kind. */
function rawBodyArb(op: OperationDefinition): fc.Arbitrary<string | Buffer> {
  const valid = mutated(op.input ?? {}, words).map((v) => JSON.stringify(v) ?? 'null');
  return fc.oneof(
    fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)),
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.tuple(valid, fc.nat()).map(([text, cut]) => text.slice(0, cut % Math.max(1, text.length))),
    valid.map((text) => `\ufeff${text}`),
    valid.map((text) => `${text}${text}`),
    fc.constantFrom(
      '{"a":',
      '{"line_items": [}',
      'line_items=1',
      '<cart/>',
      '{"quantity": 1e400}',
      '{"a":1,"a":2}',
      '\u0000',
      'NaN',
      'undefined',
      '[]',
      '""',
      '{"__proto__":{"x":1}}',
      '{"constructor":{"prototype":{}}}',
      `${'['.repeat(100)}${']'.repeat(100)}`,
    ),
  );
}
