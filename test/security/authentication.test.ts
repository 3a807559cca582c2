/** Caller authentication per tenant policy: API keys, OAuth bearer tokens, signatures, mutual TLS (spec part 1 §5, part 2 §5). */
import { createHash } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Authenticator } from '../../src/security/auth/authenticator.js';
import { verifiedPeerCertificate } from '../../src/security/auth/client-certificates.js';
import { ORDER_MANAGE, ORDER_READ } from '../../src/security/auth/scopes.js';
import { secureGateway, type SecureGateway } from './helpers/secure-gateway.js';

const sha256hex = (text: string) => createHash('sha256').update(text).digest('hex');
const API_KEY = 'pk_live_7Zq4mWc2Rr9xL1vB8nT0sY3a';
const OTHER_KEY = 'pk_live_other_platform_5Jh2Kd8Qw';
const ISSUER = 'https://id.shop.example';
const AUDIENCE = 'https://shop.example';
const OTHER_PROFILE = 'https://other-agent.example/.well-known/proto';
const T0 = Date.parse('2026-05-01T12:00:00Z');

let issuerKey: CryptoKey;
let issuerJwk: JWK;
let strangerKey: CryptoKey;

beforeAll(async () => {
  const pair = await generateKeyPair('ES256', { extractable: true });
  issuerKey = pair.privateKey;
  issuerJwk = { ...(await exportJWK(pair.publicKey)), kid: 'as-1', alg: 'ES256' };
  strangerKey = (await generateKeyPair('ES256')).privateKey;
});

function token(claims: Record<string, unknown>, options: { key?: CryptoKey; audience?: string; expiresAt?: number } = {}) {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'ES256', kid: 'as-1' })
    .setIssuer(ISSUER)
    .setAudience(options.audience ?? AUDIENCE)
    .setIssuedAt(Math.floor(T0 / 1000))
    .setExpirationTime(Math.floor((options.expiresAt ?? T0 + 600_000) / 1000))
    .sign(options.key ?? issuerKey);
}

const whoami = { method: 'GET' as const, path: '/whoami', sign: false as const };
const order = { method: 'GET' as const, path: '/order-probe/ord_1', sign: false as const };
const bearer = (value: string) => ({ authorization: `Bearer ${value}` });

describe('with API keys and OAuth configured', () => {
  let gw: SecureGateway;
  beforeAll(async () => {
    gw = await secureGateway({
      now: () => T0,
      tenant: (platform) => ({
        auth: {
          api_keys: [
            { sha256: sha256hex(API_KEY), profile: platform.url() },
            { sha256: sha256hex(OTHER_KEY), profile: OTHER_PROFILE },
          ],
          oauth: {
            issuer: ISSUER,
            audience: AUDIENCE,
            jwks: { keys: [issuerJwk] },
            clients: { 'agent-app': platform.url(), 'other-app': OTHER_PROFILE },
          },
          signatures: { profiles: [platform.url()] },
        },
      }),
    });
  });
  afterAll(() => gw.close());

  describe('API keys', () => {
    it('authenticate the platform the key was issued to', async () => {
      const res = await gw.call({ ...whoami, headers: { 'x-api-key': API_KEY } });
      expect(res.statusCode).toBe(200);
      expect(res.json().principal).toEqual({ kind: 'platform', profileUrl: gw.platform.url(), via: 'api_key' });
      expect((await gw.call({ ...order, headers: { 'x-api-key': API_KEY } })).statusCode).toBe(200);
    });

    it('401 invalid_credentials for an unknown key', async () => {
      const res = await gw.call({ ...whoami, headers: { 'x-api-key': `${API_KEY}x` } });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'invalid_credentials' });
    });

    it('403 credential_profile_mismatch for a key issued to another platform', async () => {
      const res = await gw.call({ ...whoami, headers: { 'x-api-key': OTHER_KEY } });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'credential_profile_mismatch' });
    });
  });

  describe('bearer tokens', () => {
    it('a client-credentials token authenticates the platform', async () => {
      const res = await gw.call({ ...whoami, headers: bearer(await token({ sub: 'agent-app', client_id: 'agent-app' })) });
      expect(res.statusCode).toBe(200);
      expect(res.json().principal).toEqual({ kind: 'platform', profileUrl: gw.platform.url(), via: 'oauth' });
    });

    it('a buyer token carries the buyer and scopes, and reads orders with order:read', async () => {
      const buyer = await token({ sub: 'buyer-42', client_id: 'agent-app', scope: `${ORDER_READ} openid` });
      const res = await gw.call({ ...order, headers: bearer(buyer) });
      expect(res.statusCode).toBe(200);
      expect(res.json().principal).toEqual({
        kind: 'buyer',
        buyerId: 'buyer-42',
        scopes: [ORDER_READ, 'openid'],
        profileUrl: gw.platform.url(),
      });
      const scp = await token({ sub: 'buyer-42', azp: 'agent-app', scp: [ORDER_READ] });
      expect((await gw.call({ ...order, headers: bearer(scp) })).statusCode).toBe(200);
    });

    it('403 insufficient_scope for a buyer token without order:read on an order operation', async () => {
      const buyer = await token({ sub: 'buyer-42', client_id: 'agent-app', scope: ORDER_MANAGE });
      const res = await gw.call({ ...order, headers: bearer(buyer) });
      expect(res.statusCode).toBe(403);
      expect(res.json().messages).toEqual([
        expect.objectContaining({ code: 'insufficient_scope', content: expect.stringContaining(ORDER_READ) }),
      ]);
      expect(res.headers['www-authenticate']).toBe(`Bearer error="insufficient_scope", scope="${ORDER_READ}"`);
      expect((await gw.call({ ...whoami, headers: bearer(buyer) })).statusCode).toBe(200);
    });

    it('401 for an expired token, the wrong audience or a foreign signature', async () => {
      const expired = await gw.call({ ...whoami, headers: bearer(await token({ sub: 'agent-app' }, { expiresAt: T0 - 120_000 })) });
      expect(expired.statusCode).toBe(401);
      expect(expired.json()).toEqual({ code: 'invalid_credentials', content: 'the bearer token has expired' });
      expect(expired.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
      const audience = await gw.call({
        ...whoami,
        headers: bearer(await token({ sub: 'agent-app' }, { audience: 'https://other-shop.example' })),
      });
      expect(audience.json()).toMatchObject({ code: 'invalid_credentials', content: expect.stringContaining('(aud)') });
      const forged = await gw.call({ ...whoami, headers: bearer(await token({ sub: 'agent-app' }, { key: strangerKey })) });
      expect(forged.statusCode).toBe(401);
      const basic = await gw.call({ ...whoami, headers: { authorization: 'Basic YWdlbnQ6c2VjcmV0' } });
      expect(basic.statusCode).toBe(401);
    });

    it('403 when the token belongs to another platform or to an unregistered client', async () => {
      const other = await gw.call({
        ...whoami,
        headers: bearer(await token({ sub: 'buyer-1', client_id: 'other-app', scope: ORDER_READ })),
      });
      expect(other.statusCode).toBe(403);
      expect(other.json().code).toBe('credential_profile_mismatch');
      // An https client_id is its own profile URL (client ID metadata documents), here not the caller's.
      const url = await gw.call({ ...whoami, headers: bearer(await token({ sub: OTHER_PROFILE, client_id: OTHER_PROFILE })) });
      expect(url.json().code).toBe('credential_profile_mismatch');
      const unknown = await gw.call({ ...whoami, headers: bearer(await token({ sub: 'stranger-app' })) });
      expect(unknown.json()).toMatchObject({ code: 'unknown_client' });
    });
  });

  it('an order operation needs an authenticated caller; a signature by the key of a profile the tenant lists is enough', async () => {
    const anonymous = await gw.call(order);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({
      code: 'authentication_required',
      content: expect.stringContaining('api_key, oauth, signature'),
    });
    expect(anonymous.headers['www-authenticate']).toBe('Bearer');
    const signed = await gw.call({ ...order, sign: {} });
    expect(signed.json().principal).toEqual({ kind: 'platform', profileUrl: gw.platform.url(), via: 'signature' });
    expect((await gw.call(whoami)).json().principal).toEqual({ kind: 'anonymous' });
  });

  it('never writes a credential to the log', async () => {
    const jwt = await token({ sub: 'agent-app' });
    await gw.call({ ...whoami, headers: { 'x-api-key': API_KEY, ...bearer(jwt) } });
    await gw.call({ ...whoami, headers: { 'x-api-key': OTHER_KEY } });
    const written = gw.logs.join('\n');
    expect(gw.logs.length).toBeGreaterThan(0);
    expect(written).not.toContain(API_KEY);
    expect(written).not.toContain(OTHER_KEY);
    expect(written).not.toContain(jwt.split('.')[2]);
  });
});

describe('tenant policies', () => {
  it('required: every operation needs a caller; an API key the tenant does not accept is refused', async () => {
    const gw = await secureGateway({ tenant: (platform) => ({ auth: { required: true, signatures: { profiles: [platform.url()] } } }) });
    try {
      expect((await gw.call(whoami)).json()).toMatchObject({
        code: 'authentication_required',
        content: expect.stringContaining('accepted: signature'),
      });
      expect((await gw.call({ ...whoami, sign: {} })).statusCode).toBe(200);
      expect((await gw.call({ ...whoami, headers: { 'x-api-key': API_KEY } })).json()).toMatchObject({ code: 'credential_not_accepted' });
    } finally {
      await gw.close();
    }
  });

  it('oauth with a remote JWKS (jwks_url), and 503 when the authorization server cannot be reached', async () => {
    const gw = await secureGateway({
      now: () => T0,
      tenant: (platform) => {
        platform.serve('/jwks', { keys: [issuerJwk] });
        return {
          auth: {
            oauth: { issuer: ISSUER, audience: AUDIENCE, jwks_url: platform.url('/jwks'), clients: { 'agent-app': platform.url() } },
          },
        };
      },
    });
    const down = await secureGateway({
      tenant: (platform) => ({
        auth: {
          oauth: { issuer: ISSUER, audience: AUDIENCE, jwks_url: 'http://127.0.0.1:9/jwks', clients: { 'agent-app': platform.url() } },
        },
      }),
    });
    try {
      const jwt = await token({ sub: 'agent-app' });
      expect((await gw.call({ ...whoami, headers: bearer(jwt) })).json().principal).toMatchObject({ kind: 'platform', via: 'oauth' });
      expect(gw.platform.hits('/jwks')).toBe(1);
      const unavailable = await down.call({ ...whoami, headers: bearer(jwt) });
      expect(unavailable.statusCode).toBe(503);
      expect(unavailable.json().code).toBe('authorization_server_unavailable');
    } finally {
      await Promise.all([gw.close(), down.close()]);
    }
  });
});

describe('mutual TLS', () => {
  const FINGERPRINT = 'AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89';
  const PROFILE = 'https://agent.example/.well-known/proto';

  it('reads the fingerprint only from a TLS socket whose peer certificate was verified', () => {
    const socket = (authorized: boolean) =>
      ({ encrypted: true, authorized, getPeerCertificate: () => ({ fingerprint256: FINGERPRINT }) }) as never;
    expect(verifiedPeerCertificate(socket(true))).toBe(FINGERPRINT.replace(/:/g, '').toLowerCase());
    expect(verifiedPeerCertificate(socket(false))).toBeUndefined();
    expect(verifiedPeerCertificate({ encrypted: undefined } as never)).toBeUndefined();
  });

  it('maps a verified client certificate to the platform it was issued to', async () => {
    const authenticator = new Authenticator({ mtls: { clients: [{ sha256: FINGERPRINT, profile: PROFILE }] } }, false, 'test');
    const http = {
      method: 'GET',
      authority: 'shop.example',
      path: '/whoami',
      headers: {},
      clientCertificateSha256: FINGERPRINT.replace(/:/g, '').toLowerCase(),
    };
    await expect(authenticator.authenticate({ agentProfile: PROFILE, http, signatures: [], now: T0 })).resolves.toEqual({
      kind: 'platform',
      profileUrl: PROFILE,
      via: 'mtls',
    });
    await expect(authenticator.authenticate({ agentProfile: OTHER_PROFILE, http, signatures: [], now: T0 })).rejects.toMatchObject({
      status: 403,
      code: 'credential_profile_mismatch',
    });
    await expect(
      authenticator.authenticate({
        agentProfile: PROFILE,
        http: { ...http, clientCertificateSha256: '00'.repeat(32) },
        signatures: [],
        now: T0,
      }),
    ).resolves.toEqual({ kind: 'anonymous' });
  });
});
