/**
 * The tokens a buyer's link issues are kept only as hashes in Redis: after a real authorization
 * code flow, no key name and no stored value holds the authorization code, the access token or the
 * refresh token, and oidc-provider still finds each by the value presented (reading an order,
 * rotating the refresh token, revoking it).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { settingsFromEnv } from '../../src/config/env.js';
import { ORDER_READ } from '../../src/security/auth/scopes.js';
import { openStore } from '../../src/state/create-store.js';
import type { StateStore } from '../../src/state/store.js';
import { orderGateway, type OrderGateway } from '../helpers/order-gateway.js';
import { startPlatform, type PlatformServer } from '../helpers/platform.js';
import { deleteKeys, describeWithRedis, REDIS_URL } from '../helpers/redis.js';
import { linkBuyer, tokenRequest } from './helpers/link.js';

const CALLBACK = 'http://127.0.0.1/callback';
const JANE = { email: 'jane.smith@example.com', password: 'demo-flowers' };

describeWithRedis('OAuth tokens in Redis', () => {
  const prefix = `test-${randomUUID().slice(0, 8)}`;
  let store: StateStore;
  let platform: PlatformServer;
  let gw: OrderGateway;

  beforeAll(async () => {
    store = await openStore(settingsFromEnv({ STORE: REDIS_URL, STORE_PREFIX: prefix }));
    platform = await startPlatform();
    gw = await orderGateway({
      store,
      platform,
      tenant: {
        capabilities: { 'dev.proto.shopping.order': {}, 'dev.proto.common.identity_linking': {} },
        identity_linking: { clients: [{ client_id: 'agent-app', profile: platform.url(), redirect_uris: [CALLBACK] }] },
      },
    });
  });
  afterAll(async () => {
    await gw?.close();
    await platform?.close();
    await store?.close();
    await deleteKeys(REDIS_URL, prefix);
  });

  /** Every key of this run with its value, as Redis holds them. */
  async function everything(): Promise<string> {
    const client = store.connection!.client;
    const keys = await client.keys(`${prefix}*`);
    const values = await Promise.all(keys.map(async (key) => ((await client.type(key)) === 'string' ? client.get(key) : '')));
    return keys.map((key, i) => `${key} ${values[i]}`).join('\n');
  }

  const readOrder = (orderId: string, token: string) =>
    gw.app.inject({
      method: 'GET',
      url: `/orders/${orderId}`,
      headers: { ...gw.headers({ 'proto-agent': platform.agent() }), authorization: `Bearer ${token}` },
    });

  it('no key or value holds a code, an access token or a refresh token; each is still found by its value', async () => {
    const { code, verifier } = await linkBuyer(gw.app, { clientId: 'agent-app', redirectUri: CALLBACK, scope: ORDER_READ, ...JANE });
    const issued = await tokenRequest(gw.app, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: CALLBACK,
      code_verifier: verifier,
      client_id: 'agent-app',
    });
    expect(issued.status).toBe(200);
    const { access_token: access, refresh_token: refresh } = issued.body;
    const held = await everything();
    expect(held).toContain(':oidc:'); // the grants are there
    for (const [what, secret] of Object.entries({ code, access, refresh })) expect(held, what).not.toContain(secret!);

    const orderId = await gw.placeOrder({ buyerId: 'cust_2', profileUrl: platform.url() });
    expect((await readOrder(orderId, access!)).statusCode).toBe(200);
    const rotated = await tokenRequest(gw.app, { grant_type: 'refresh_token', refresh_token: refresh!, client_id: 'agent-app' });
    expect(rotated.status).toBe(200);
    const next = rotated.body;
    expect(await everything()).not.toContain(next.refresh_token!);
    expect((await readOrder(orderId, next.access_token!)).statusCode).toBe(200);

    const revoked = await gw.app.inject({
      method: 'POST',
      url: '/oauth2/revoke',
      headers: { host: 'shop.example', 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ token: next.refresh_token!, token_type_hint: 'refresh_token', client_id: 'agent-app' }).toString(),
    });
    expect(revoked.statusCode).toBe(200);
    expect((await readOrder(orderId, next.access_token!)).statusCode).toBe(401);
  });
});
