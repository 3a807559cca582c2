/**
 * A2A contexts belong to who is calling (issue 46 §3): a contextId two callers both pick
 * (`chat-42`) resolves, for each, to what that caller made in it. Here the platform proves itself
 * with its API key and another caller merely names the platform's profile URL.
 */
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoGateway, type DemoGateway } from '../../helpers/demo-gateway.js';
import { startPlatform, type PlatformServer } from '../../helpers/platform.js';

const API_KEY = 'a2a-contexts-platform-key';
const CONTEXT = 'chat-42';

let platform: PlatformServer;
let gw: DemoGateway;
beforeAll(async () => {
  platform = await startPlatform();
  // The key is issued to the platform whose profile both callers name.
  const apiKeys = [{ sha256: createHash('sha256').update(API_KEY).digest('hex'), profile: platform.url() }];
  gw = await demoGateway({ platform, tenant: { a2a: true, auth: { api_keys: apiKeys } } });
});
afterAll(async () => {
  await gw.close();
  await platform.close();
});

const PLATFORM = { 'x-api-key': API_KEY };
const CLAIMANT = {};

/** One action in `chat-42` (A2A 1.0 JSON-RPC), as the platform or as a caller that proves nothing. */
async function act(credentials: Record<string, string>, data: Record<string, unknown>) {
  const res = await gw.app.inject({
    method: 'POST',
    url: '/a2a',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0', 'proto-agent': gw.platform.agent(), ...credentials },
    payload: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: { role: 'ROLE_USER', messageId: randomUUID(), contextId: CONTEXT, parts: [{ data }] } },
    }),
  });
  return res.json();
}

const checkoutOf = (answer: { result?: { message: { parts: Array<{ data?: Record<string, any> }> } } }) =>
  answer.result?.message.parts[0]?.data?.['a2a.proto.checkout'];
const lines = (quantity: number) => [{ item: { id: 'bouquet_roses' }, quantity }];

describe('two callers in the same contextId', () => {
  it('neither sees nor replaces the checkout the other made there', async () => {
    const created = await act(PLATFORM, { action: 'create_checkout', line_items: lines(1) });
    const mine = checkoutOf(created);
    expect(mine.id).toEqual(expect.any(String));

    // The context is the platform's: a caller naming the same profile finds no checkout in it.
    const peek = await act(CLAIMANT, { action: 'get_checkout' });
    expect(checkoutOf(peek)).toBeUndefined();
    expect(peek.error).toMatchObject({ code: -32602, data: [{ reason: 'INVALID_REQUEST' }] });
    expect(peek.error.message).toContain('needs "id"');

    // A wrong key is refused before any context is looked at.
    const forged = await act({ 'x-api-key': `${API_KEY}-guess` }, { action: 'get_checkout' });
    expect(checkoutOf(forged)).toBeUndefined();
    expect(forged.error.data[0]).toMatchObject({ reason: 'INVALID_CREDENTIALS' });

    // Its own checkout in "chat-42" does not take the platform's place.
    const theirs = checkoutOf(await act(CLAIMANT, { action: 'create_checkout', line_items: lines(3) }));
    expect(theirs.id).not.toBe(mine.id);
    const again = checkoutOf(await act(PLATFORM, { action: 'get_checkout' }));
    expect(again).toMatchObject({ id: mine.id, line_items: [{ quantity: 1 }] });
    expect(checkoutOf(await act(CLAIMANT, { action: 'get_checkout' }))).toMatchObject({ id: theirs.id, line_items: [{ quantity: 3 }] });
  });
});
