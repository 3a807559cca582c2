/**
 * Sessions belong to what the caller's credentials prove, not to the profile URL it names (issue
 * 46 item 2): what an authenticated platform made (here: signed requests) is, to a caller that
 * merely names the same profile URL without proving it, exactly what an id that never existed is,
 * over REST, MCP, A2A and the embedded page; its idempotency keys replay nothing to that caller;
 * its orders are read by nobody unauthenticated; and the page URL's token is opaque, naming
 * nothing another transport could use. Every operation taking an id comes from the table.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { operations } from '../../src/pipeline/table.js';
import { EMBEDDED, pageCall, pathOf } from '../embedded/embedded-gateway.js';
import { completeCheckout, readyCheckout } from './helpers/checkout-flow.js';
import { send, type Target, type Transport } from './helpers/operation-client.js';
import { reliabilityGateway, type ReliabilityGateway } from './helpers/reliability-gateway.js';
import { goodPayload, resourceKinds, SEED_LINES, type ResourceKind } from './helpers/resources.js';

const TRANSPORTS: readonly Transport[] = ['rest', 'mcp', 'a2a'];
const sessions = resourceKinds(operations).filter((kind) => kind.create);
let gw: ReliabilityGateway;
let profile: string;
/** The platform proving who it is (its signature). */
let owner: Target;
/** Anyone naming the same profile URL, proving nothing. */
let claimer: Target;

beforeAll(async () => {
  gw = await reliabilityGateway({ tenant: { a2a: true, embedded: EMBEDDED } });
  profile = gw.agent('owner');
  owner = { app: gw.app, sign: (request: InjectOptions) => gw.sign(request) };
  claimer = { app: gw.app };
});
afterAll(() => gw?.close());

it('the table has sessions callers own', () => {
  expect(sessions.map((k) => k.capability)).toEqual(['dev.proto.shopping.cart', 'dev.proto.shopping.checkout']);
});

describe.each(sessions.map((kind) => [kind.capability, kind] as const))('%s of an authenticated platform', (_name, kind) => {
  const cases = kind.byId.flatMap((op) => TRANSPORTS.map((transport) => ({ op, transport, name: `${op.name} over ${transport}` })));

  it.each(cases)('$name, naming its profile without proving it: the answer for an unknown id, the session unchanged', async (c) => {
    const id = await kind.produce(owner, profile);
    const before = await snapshot(owner, kind, profile, id);
    const payload = goodPayload(c.op);
    const call = { op: c.op, transport: c.transport, profile, ...(payload && { payload }) };
    const claimed = await send(claimer, { ...call, id });
    const unknown = await send(claimer, { ...call, id: `${id.slice(0, -4)}zzzz` });
    expect(claimed.kind).not.toBe('success');
    expect([claimed.status, claimed.body]).toEqual([unknown.status, unknown.body]);
    expect(await snapshot(owner, kind, profile, id)).toBe(before);
  });

  it("its idempotency key and body, sent by the claimer, replay nothing of the platform's", async () => {
    const key = `claimed-key-${kind.capability}`;
    const call = { op: kind.create!, transport: 'rest' as const, profile, key, payload: { line_items: SEED_LINES } };
    const mine = await send(owner, call);
    const theirs = await send(claimer, call);
    expect(theirs.kind).toBe('success');
    expect(theirs.replayed).toBe(false);
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect((await send(owner, call)).replayed).toBe(true);
  });
});

describe('the embedded page of an authenticated platform’s checkout', () => {
  it("serves the platform's session, yet its URL names nothing a caller could use over another transport", async () => {
    const checkout = kind('dev.proto.shopping.checkout');
    const id = await readyCheckout(owner, profile, SEED_LINES);
    const read = await send(owner, { op: checkout.read, transport: 'rest', profile, id });
    const page: string = read.body.continue_url;
    expect(pathOf(page)).toMatch(/^\/embedded\/checkout\//);
    // The page acts for the session's owner: it reads and changes the session.
    const viaPage = await pageCall(gw, page, 'get_checkout', undefined, { key: null });
    expect([viaPage.status, viaPage.body.id, viaPage.body.buyer?.email]).toEqual([200, id, read.body.buyer.email]);
    // Its token is opaque: neither the session id nor the owner is in it, however it is decoded.
    const token = page.split('/').at(-1)!;
    for (const shown of [token, Buffer.from(token, 'base64url').toString('latin1')]) {
      expect(shown).not.toContain(id);
      expect(shown).not.toContain(new URL(profile).host);
    }
    // And a caller holding the page URL and naming the profile reaches nothing with it elsewhere.
    for (const transport of TRANSPORTS) {
      const answer = await send(claimer, { op: checkout.read, transport, profile, id: token });
      expect(answer.kind).not.toBe('success');
    }
  });
});

describe('an order of an authenticated platform', () => {
  it('is read by the platform proving who it is, never by a caller that only names its profile', async () => {
    const completed = await completeCheckout(owner, profile, await readyCheckout(owner, profile, SEED_LINES));
    expect(completed.kind).toBe('success');
    const getOrder = operations.find((op) => op.name === 'get_order')!;
    for (const transport of TRANSPORTS) {
      const claimed = await send(claimer, { op: getOrder, transport, profile, id: completed.body.order.id });
      expect(claimed.kind, transport).toBe('transport');
      expect(claimed.code).toBe('authentication_required');
    }
    expect((await send(owner, { op: getOrder, transport: 'rest', profile, id: completed.body.order.id })).kind).toBe('success');
  });
});

/** What the owner reads of a session; its page URL is sealed afresh on every answer, so it is left out. */
async function snapshot(target: Target, kind: ResourceKind, profile: string, id: string): Promise<string> {
  const answer = await send(target, { op: kind.read, transport: 'rest', profile, id });
  const { continue_url: _page, ...body } = answer.body as Record<string, unknown>;
  return JSON.stringify([answer.status, answer.kind, body]);
}

function kind(capability: string) {
  return sessions.find((k) => k.capability === capability)!;
}
