/**
 * RFC 7591 dynamic client registration: off unless the tenant turns it on; then only with the
 * initial access token the business handed out, and a registered client's token is the platform
 * its `profile` names, as a registered-by-CLI client's is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderGateway, type OrderGateway } from '../helpers/order-gateway.js';
import { startPlatform, type PlatformServer } from '../helpers/platform.js';
import { tokenRequest } from './helpers/link.js';

const INITIAL = 'initial-access-token-of-the-business';
const linking = { capabilities: { 'dev.proto.shopping.order': {}, 'dev.proto.common.identity_linking': {} } };

let off: OrderGateway;
let on: OrderGateway;
let other: PlatformServer;

beforeAll(async () => {
  other = await startPlatform();
  [off, on] = await Promise.all([
    orderGateway({ tenant: linking }),
    orderGateway({
      tenant: { ...linking, identity_linking: { dynamic_registration: { initial_access_token: { env: 'DCR_TOKEN' } } } },
      assemblyEnv: { DCR_TOKEN: INITIAL },
    }),
  ]);
});
afterAll(async () => {
  await Promise.all([off.close(), on.close(), other.close()]);
});

const register = (gw: OrderGateway, body: object, token?: string) =>
  gw.app.inject({
    method: 'POST',
    url: '/oauth2/register',
    headers: { host: 'shop.example', 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
    payload: JSON.stringify(body),
  });
const metadata = async (gw: OrderGateway) =>
  (await gw.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server', headers: { host: 'shop.example' } })).json();

describe('dynamic client registration', () => {
  it('is off by default: no registration_endpoint, /oauth2/register is not there', async () => {
    expect((await metadata(off)).registration_endpoint).toBeUndefined();
    const res = await register(off, { profile: other.url(), grant_types: ['client_credentials'], response_types: [] });
    expect(res.statusCode).toBe(404);
  });

  it('turned on, it needs the initial access token and a profile URL', async () => {
    expect((await metadata(on)).registration_endpoint).toBe('https://shop.example/oauth2/register');
    const body = {
      profile: other.url(),
      grant_types: ['client_credentials'],
      response_types: [],
      token_endpoint_auth_method: 'client_secret_basic',
    };
    expect((await register(on, body)).statusCode).toBe(401);
    expect((await register(on, body, 'a-guess')).statusCode).toBe(401);
    const noProfile = await register(on, { ...body, profile: undefined }, INITIAL);
    expect(noProfile.statusCode).toBe(400);
    expect(noProfile.json()).toMatchObject({ error: 'invalid_client_metadata' });
  });

  it("a registered client's client-credentials token is the platform its profile names", async () => {
    const created = await register(
      on,
      { profile: other.url(), grant_types: ['client_credentials'], response_types: [], token_endpoint_auth_method: 'client_secret_basic' },
      INITIAL,
    );
    expect(created.statusCode).toBe(201);
    const { client_id, client_secret } = created.json<{ client_id: string; client_secret: string }>();
    const basic = `Basic ${Buffer.from(`${encodeURIComponent(client_id)}:${encodeURIComponent(client_secret)}`).toString('base64')}`;
    const token = await tokenRequest(on.app, { grant_type: 'client_credentials' }, basic);
    expect(token.status).toBe(200);
    const read = (orderId: string, agent: string) =>
      on.app.inject({
        method: 'GET',
        url: `/orders/${orderId}`,
        headers: { ...on.headers({ 'proto-agent': agent }), authorization: `Bearer ${token.body.access_token}` },
      });
    const its = await on.placeOrder({ profileUrl: other.url() });
    expect((await read(its, other.agent())).json().id).toBe(its);
    const notIts = await on.placeOrder({ profileUrl: on.platform.url() });
    expect((await read(notIts, other.agent())).json().messages[0].code).toBe('unauthorized');
    expect((await read(notIts, on.platform.agent())).statusCode).toBe(403);
  });
});
