/**
 * Every JSON-RPC message is metered (issue 46 item 6): an MCP tools/list, ping, initialize or
 * notification, and an A2A message without an action, each costs its method's price on the
 * sender's address budget and the tenant's, as operation calls do, so a spent budget stops them
 * too; and one request can make the gateway send only so much (a batch costs at most what 20 tool
 * calls cost).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BATCH } from '../../src/transports/mcp/mcp-transport.js';
import { MESSAGE_COSTS } from '../../src/transports/rate-limiter.js';
import { demoGateway, type DemoGateway } from '../helpers/demo-gateway.js';

const LIMIT = 10;
let gw: DemoGateway;
let addresses = 0;
/** Each test its own client address, so its own budget. */
const nextAddress = () => `198.51.100.${++addresses}`;

beforeAll(async () => {
  gw = await demoGateway({ tenant: { a2a: true, policies: { rate_limits: { per_caller: { max: LIMIT, window_seconds: 60 } } } } });
});
afterAll(() => gw.close());

const rpc = (method: string, id: number | undefined, params?: unknown) => ({
  jsonrpc: '2.0',
  ...(id !== undefined && { id }),
  method,
  ...(params !== undefined && { params }),
});
const INITIALIZE = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'metering-test', version: '1' } };

const mcp = (address: string, payload: unknown) =>
  gw.app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    payload: JSON.stringify(payload),
    remoteAddress: address,
  });

/** Spends an address's budget with operation calls (REST catalog searches). */
async function spend(address: string, calls = LIMIT) {
  for (let i = 0; i < calls; i++) {
    const res = await gw.app.inject({
      method: 'POST',
      url: '/catalog/search',
      headers: gw.headers(),
      payload: { query: 'roses' },
      remoteAddress: address,
    });
    expect(res.statusCode).toBe(200);
  }
}

type Answer = { id: number; error?: { data?: { code?: string } } };
const rateLimited = (answer: Answer) => answer.error?.data?.code === 'rate_limited';

describe('MCP messages that run no operation', () => {
  it('past a spent budget, a lone tools/list, ping or initialize answers 429 with Retry-After, not its result', async () => {
    const address = nextAddress();
    await spend(address);
    for (const message of [rpc('tools/list', 1), rpc('ping', 2), rpc('initialize', 3, INITIALIZE)]) {
      const res = await mcp(address, message);
      expect(res.statusCode, message.method).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(res.json()).toMatchObject({ id: message.id, error: { code: -32000, data: { code: 'rate_limited', http_status: 429 } } });
    }
  });

  it('past a spent budget, a batch of tools/list and pings answers each with the rate-limit error: a few hundred bytes', async () => {
    const address = nextAddress();
    await spend(address);
    const batch = [...[1, 2, 3].map((id) => rpc('tools/list', id)), ...[4, 5, 6, 7, 8].map((id) => rpc('ping', id))];
    const res = await mcp(address, batch);
    const answers = res.json<Answer[]>();
    expect(answers.map((a) => a.id).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(answers.every(rateLimited)).toBe(true);
    expect(res.body.length).toBeLessThan(2_000);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('each message spends its cost: two tools/list spend a budget of 10, then a tool call is refused', async () => {
    expect(MESSAGE_COSTS['tools/list']).toBe(5);
    const address = nextAddress();
    for (const id of [1, 2]) expect((await mcp(address, rpc('tools/list', id))).statusCode).toBe(200);
    const call = rpc('tools/call', 3, { name: 'search_catalog', arguments: { meta: gw.meta(), catalog: { query: 'roses' } } });
    expect((await mcp(address, call)).statusCode).toBe(429);
  });

  it('pings, notifications and calls of unknown tools count one each', async () => {
    const address = nextAddress();
    const batch = [
      ...[1, 2, 3, 4].map((id) => rpc('ping', id)),
      ...[0, 0, 0].map(() => rpc('notifications/initialized', undefined)),
      ...[5, 6, 7].map((id) => rpc('tools/call', id, { name: 'no_such_tool', arguments: {} })),
    ];
    const answers = (await mcp(address, batch)).json<Answer[]>();
    expect(answers.filter(rateLimited)).toEqual([]);
    // 10 spent: the next message of any kind is refused.
    expect((await mcp(address, rpc('ping', 8))).statusCode).toBe(429);
  });

  it(`a batch costs at most ${MAX_BATCH} calls: ${MAX_BATCH} tools/list in one are refused before any is answered`, async () => {
    const res = await mcp(
      nextAddress(),
      Array.from({ length: MAX_BATCH }, (_, id) => rpc('tools/list', id)),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ id: null, error: { code: -32602, data: { code: 'request_too_large' } } });
    expect(res.body.length).toBeLessThan(1_000);
    // Within the bound, the tools are listed.
    const fits = await mcp(nextAddress(), [rpc('tools/list', 1), rpc('ping', 2)]);
    expect(fits.json().find((a: { id: number }) => a.id === 1).result.tools.length).toBeGreaterThan(5);
  });
});

describe('A2A messages that run no operation', () => {
  const a2a = (address: string, text: string) =>
    gw.app.inject({
      method: 'POST',
      url: '/a2a',
      headers: { 'content-type': 'application/json', 'proto-agent': gw.platform.agent() },
      payload: JSON.stringify(
        rpc('message/send', 1, {
          message: { kind: 'message', role: 'user', messageId: `m-${address}-${text.length}`, parts: [{ kind: 'text', text }] },
        }),
      ),
      remoteAddress: address,
    });

  it('a free-text message spends one call; past a spent budget it answers 429, not the help text', async () => {
    const address = nextAddress();
    await spend(address, LIMIT - 1);
    const help = await a2a(address, 'what can you do?');
    expect(help.statusCode).toBe(200);
    expect(JSON.stringify(help.json().result)).toContain('structured requests');
    const refused = await a2a(address, 'and now?');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toMatchObject({ data: { code: 'rate_limited' } });
  });
});
