/**
 * Callers never reach each other's resources: for every resource the table lets callers own
 * and every operation that takes its id, over REST and MCP, another caller gets exactly the
 * answer an id that never existed gets (so an id leaks nothing), and the resource does not
 * change. Ids are unguessable, and idempotency keys are the caller's own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../src/pipeline/table.js';
import { reliabilityGateway, type ReliabilityGateway } from './helpers/reliability-gateway.js';
import { send, TRANSPORTS } from './helpers/operation-client.js';
import { goodPayload, resourceKinds, snapshot, SEED_LINES } from './helpers/resources.js';
import { Tally } from './helpers/tally.js';

const kinds = resourceKinds(operations);
const tally = new Tally('caller isolation');
let gw: ReliabilityGateway;
let owner: string;
let stranger: string;

beforeAll(async () => {
  gw = await reliabilityGateway();
  owner = gw.agent('owner');
  stranger = gw.agent('stranger');
});
afterAll(async () => {
  tally.print();
  await gw?.close();
});

it('the table has resources callers own', () => {
  expect(kinds.map((k) => k.capability)).toContain('dev.proto.shopping.cart');
});

describe.each(kinds.map((kind) => [kind.capability, kind] as const))('%s', (_name, kind) => {
  const cases = kind.byId.flatMap((op) => TRANSPORTS.map((transport) => ({ op, transport, name: `${op.name} over ${transport}` })));

  it.each(cases)('$name by another caller: the answer for an unknown id, and the resource unchanged', async ({ op, transport }) => {
    const id = await kind.produce(gw, owner);
    const before = await snapshot(gw, kind, owner, id);
    const payload = goodPayload(op);
    const foreign = await send(gw, { op, transport, profile: stranger, id, ...(payload && { payload }) });
    const unknown = await send(gw, { op, transport, profile: stranger, id: `${id.slice(0, -4)}zzzz`, ...(payload && { payload }) });
    tally.record(foreign);
    tally.count('foreign attempts');
    expect(foreign.kind).not.toBe('success');
    if (kind.create) {
      // Ids the gateway mints: another caller cannot even tell the resource exists.
      expect([foreign.status, foreign.body]).toEqual([unknown.status, unknown.body]);
    } else {
      // Store ids (orders): the spec answers `unauthorized` rather than `not_found`, and nothing of the resource.
      expect(foreign.kind).toBe('outcome');
      expect(Object.keys(foreign.body).sort()).toEqual(Object.keys(unknown.body).sort());
      expect(foreign.body.messages.map((m: { code: string }) => m.code)).toEqual(['unauthorized']);
    }
    expect(await snapshot(gw, kind, owner, id)).toBe(before);
    if (foreign.kind === 'success') tally.count('foreign successes');
  });
});

describe.each(kinds.flatMap((kind) => (kind.create ? [[kind.create.name, kind, kind.create] as const] : [])))(
  '%s',
  (_name, kind, create) => {
    it('ids the gateway mints are unguessable: 128 random bits or more, nothing shared past a fixed prefix', async () => {
      const ids = await Promise.all(Array.from({ length: 64 }, () => kind.produce(gw, owner)));
      expect(new Set(ids).size).toBe(ids.length);
      let prefix = ids[0]!;
      for (const id of ids) while (!id.startsWith(prefix)) prefix = prefix.slice(0, -1);
      const tails = ids.map((id) => id.slice(prefix.length)).join('');
      // The alphabet the ids are drawn from: hex, alphanumeric, base64url, or what was seen.
      const alphabet = /^[0-9a-f]*$/.test(tails)
        ? 16
        : /^[0-9A-Za-z]*$/.test(tails)
          ? 62
          : /^[\w-]*$/.test(tails)
            ? 64
            : new Set(tails).size;
      const randomBits = Math.min(...ids.map((id) => id.length - prefix.length)) * Math.log2(alphabet);
      expect(randomBits).toBeGreaterThanOrEqual(128);
    });

    it("an idempotency key is the caller's own: another caller's same key and body get their own resource", async () => {
      const key = `shared-key-${create.name}`;
      const call = { op: create, transport: 'rest' as const, key, payload: { line_items: SEED_LINES } };
      const mine = await send(gw, { ...call, profile: owner });
      const theirs = await send(gw, { ...call, profile: stranger });
      expect(mine.kind).toBe('success');
      expect(theirs.kind).toBe('success');
      expect(theirs.replayed).toBe(false);
      expect(theirs.body.id).not.toBe(mine.body.id);
      const replay = await send(gw, { ...call, profile: owner });
      expect(replay.replayed).toBe(true);
      expect(replay.body.id).toBe(mine.body.id);
    });
  },
);
