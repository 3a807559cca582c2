/**
 * The Shopify simulator's customer accounts as Shopify documents them (Customer Account API,
 * authentication): discovery on the shop's domain naming the authentication issuer, PKCE required
 * of public clients, registered redirect URIs only, single-use codes checked against the verifier,
 * an RS256 ID token verifiable with the JWKS, and logout redirecting only to registered URIs.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startShopifySimulator, type ShopifySimulator } from '../../simulators/shopify/server.js';

const REDIRECT = 'https://gateway.example/oauth2/federated/callback';
let sim: ShopifySimulator;
let issuer: string;

beforeAll(async () => {
  sim = await startShopifySimulator({ shopId: '26030735465' });
  sim.customerAccounts.registerClient({ clientId: 'shp_public', redirectUris: [REDIRECT], logoutUris: ['https://gateway.example/'] });
  sim.customerAccounts.registerClient({ clientId: 'shp_confidential', clientSecret: 'secret-1', redirectUris: [REDIRECT] });
  issuer = `${sim.url}/authentication/26030735465`;
});
afterAll(() => sim.close());

const form = (url: string, body: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(body).toString(),
  });

function authorize(params: Record<string, string>) {
  const url = new URL(`${issuer}/oauth/authorize`);
  for (const [k, v] of Object.entries({ response_type: 'code', redirect_uri: REDIRECT, scope: 'openid email', state: 's1', ...params }))
    url.searchParams.set(k, v);
  return fetch(url, { redirect: 'manual' });
}

/** The buyer signs in with the mailed code; answers the authorization code. */
async function signIn(params: Record<string, string>, email = 'jane.smith@example.com'): Promise<string> {
  const page = await (await authorize(params)).text();
  const loginState = /name="login_state" value="([^"]+)"/.exec(page)![1]!;
  await form(`${issuer}/login`, { login_state: loginState, email });
  const back = await form(`${issuer}/login/code`, { login_state: loginState, code: sim.customerAccounts.codes.get(email)! });
  return new URL(back.headers.get('location')!).searchParams.get('code')!;
}

describe('Shopify customer accounts (simulator)', () => {
  it("serves discovery on the shop's domain and under the issuer, with Shopify's endpoints", async () => {
    for (const url of [`${sim.url}/.well-known/openid-configuration`, `${issuer}/.well-known/openid-configuration`]) {
      expect(await (await fetch(url)).json()).toMatchObject({
        issuer,
        authorization_endpoint: `${issuer}/oauth/authorize`,
        token_endpoint: `${issuer}/oauth/token`,
        end_session_endpoint: `${issuer}/logout`,
        jwks_uri: `${issuer}/.well-known/jwks.json`,
        code_challenge_methods_supported: ['S256'],
        id_token_signing_alg_values_supported: ['RS256'],
      });
    }
  });

  it('refuses a public client without PKCE, and never redirects to an unregistered URI', async () => {
    const noPkce = await authorize({ client_id: 'shp_public' });
    expect(noPkce.status).toBe(302);
    expect(new URL(noPkce.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
    const elsewhere = await authorize({ client_id: 'shp_public', redirect_uri: 'https://evil.example/cb', code_challenge: 'x'.repeat(43) });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.headers.get('location')).toBeNull();
  });

  it('exchanges a code once, against its verifier, for tokens with an ID token the JWKS verifies', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const code = await signIn({ client_id: 'shp_public', code_challenge: challenge, code_challenge_method: 'S256', nonce: 'n-1' });
    const exchange = (v: string) =>
      form(`${issuer}/oauth/token`, {
        grant_type: 'authorization_code',
        client_id: 'shp_public',
        redirect_uri: REDIRECT,
        code,
        code_verifier: v,
      });
    const wrong = await exchange('not-the-verifier-not-the-verifier-not-the-verifier');
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: 'invalid_grant' });
    // The failed try used the code up, as a real authorization server does.
    expect((await exchange(verifier)).status).toBe(400);

    const code2 = await signIn({ client_id: 'shp_public', code_challenge: challenge, code_challenge_method: 'S256', nonce: 'n-2' });
    const ok = await form(`${issuer}/oauth/token`, {
      grant_type: 'authorization_code',
      client_id: 'shp_public',
      redirect_uri: REDIRECT,
      code: code2,
      code_verifier: verifier,
    });
    const tokens = (await ok.json()) as Record<string, string>;
    expect(tokens).toMatchObject({ token_type: 'Bearer', access_token: expect.stringMatching(/^shcat_/) });
    const { payload } = await jwtVerify(tokens.id_token!, createRemoteJWKSet(new URL(`${issuer}/.well-known/jwks.json`)), {
      issuer,
      audience: 'shp_public',
    });
    expect(payload).toMatchObject({ sub: sim.customerAccounts.customerId('jane.smith@example.com'), email_verified: true, nonce: 'n-2' });
  });

  it('a confidential client authenticates with HTTP Basic; a wrong secret is invalid_client', async () => {
    const code = await signIn({ client_id: 'shp_confidential' });
    const basic = (secret: string) => ({ authorization: `Basic ${Buffer.from(`shp_confidential:${secret}`).toString('base64')}` });
    const body = { grant_type: 'authorization_code', redirect_uri: REDIRECT, code };
    expect((await form(`${issuer}/oauth/token`, body, basic('wrong'))).status).toBe(401);
    expect((await form(`${issuer}/oauth/token`, body, basic('secret-1'))).status).toBe(200);
  });

  it('logout redirects only to a registered logout URI', async () => {
    const out = (target: string) =>
      fetch(`${issuer}/logout?post_logout_redirect_uri=${encodeURIComponent(target)}`, { redirect: 'manual' });
    expect((await out('https://gateway.example/')).headers.get('location')).toBe('https://gateway.example/');
    const elsewhere = await out('https://evil.example/');
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.headers.get('location')).toBeNull();
  });
});
