/**
 * Callers never reach each other's resources: for every resource the table lets callers own
 * and every operation that takes its id, over REST and MCP, another caller gets exactly the
 * answer an id that never existed gets (so an id leaks nothing), and the resource does not
 * change. Ids are unguessable, and idempotency keys are the caller's own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../src/operations/table.js';
import { demoGateway, type DemoGateway } from './helpers/demo-gateway.js';
import { send, TRANSPORTS } from './helpers/operation-client.js';
import { createResource, goodPayload, resourceKinds, snapshot, SEED_LINES } from './helpers/resources.js';
import { Tally } from './helpers/tally.js';

const kinds = resourceKinds(operations);
const tally = new Tally('caller isolation');
let gw: DemoGateway;
let owner: string;
let stranger: string;

beforeAll(async () => {
  gw = await demoGateway();
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

  it.each(cases)("$name by another caller: the answer for an unknown id, and the resource unchanged", async ({ op, transport }) => {
    const id = await createResource(gw.app, kind, owner);
    const before = await snapshot(gw.app, kind, owner, id);
    const payload = goodPayload(op);
    const foreign = await send(gw.app, { op, transport, profile: stranger, id, ...(payload && { payload }) });
    const unknown = await send(gw.app, { op, transport, profile: stranger, id: `${id.slice(0, -4)}zzzz`, ...(payload && { payload }) });
    tally.record(foreign);
    tally.count('foreign attempts');
    expect(foreign.kind).not.toBe('success');
    expect([foreign.status, foreign.body]).toEqual([unknown.status, unknown.body]);
    expect(await snapshot(gw.app, kind, owner, id)).toBe(before);
    if (foreign.kind === 'success') tally.count('foreign successes');
  });

  it('ids are unguessable: 128 random bits or more, nothing shared past a fixed prefix', async () => {
    const ids = await Promise.all(Array.from({ length: 64 }, () => createResource(gw.app, kind, owner)));
    expect(new Set(ids).size).toBe(ids.length);
    let prefix = ids[0]!;
    for (const id of ids) while (!id.startsWith(prefix)) prefix = prefix.slice(0, -1);
    const alphabet = new Set(ids.flatMap((id) => [...id.slice(prefix.length)]));
    const randomBits = Math.min(...ids.map((id) => id.length - prefix.length)) * Math.log2(Math.max(alphabet.size, 2));
    expect(randomBits).toBeGreaterThanOrEqual(128);
  });

  it("an idempotency key is the caller's own: another caller's same key and body get their own resource", async () => {
    const key = `shared-key-${kind.capability}`;
    const call = { op: kind.create, transport: 'rest' as const, key, payload: { line_items: SEED_LINES } };
    const mine = await send(gw.app, { ...call, profile: owner });
    const theirs = await send(gw.app, { ...call, profile: stranger });
    expect(mine.kind).toBe('success');
    expect(theirs.kind).toBe('success');
    expect(theirs.replayed).toBe(false);
    expect(theirs.body.id).not.toBe(mine.body.id);
    const replay = await send(gw.app, { ...call, profile: owner });
    expect(replay.replayed).toBe(true);
    expect(replay.body.id).toBe(mine.body.id);
  });
});
