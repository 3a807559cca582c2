/**
 * Whose signatures authenticate (issue 46 item 4): a verified signature proves only that the
 * caller holds the keys its own profile publishes, and anyone can host a profile. So a signature
 * authenticates the profiles the tenant lists (`auth.signatures.profiles`), or any profile with
 * the explicit opt-in (`auth.signatures.any_profile`); from any other profile it proves nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../adapters/kit/config-error.js';
import { Authenticator } from '../../src/security/auth/authenticator.js';
import { secureGateway, type SecureGateway } from './helpers/secure-gateway.js';

const whoami = { method: 'GET' as const, path: '/whoami' };
const order = { method: 'GET' as const, path: '/order-probe/ord_1' };
const SELF_HOSTED = '/self-hosted/.well-known/proto';

let gw: SecureGateway | undefined;
afterEach(async () => {
  await gw?.close();
  gw = undefined;
});

describe('a signature from a profile the tenant does not list', () => {
  it('proves nothing: the caller is anonymous, and operations that need a caller refuse it (401)', async () => {
    gw = await secureGateway();
    const signed = await gw.call({ ...whoami, sign: {} });
    expect(signed.statusCode).toBe(200);
    expect(signed.json().principal).toEqual({ kind: 'anonymous' });
    const refused = await gw.call({ ...order, sign: {} });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().code).toBe('authentication_required');
  });

  it('does not satisfy auth.required, however well it verifies', async () => {
    gw = await secureGateway({ tenant: { auth: { required: true } } });
    const res = await gw.call({ ...whoami, sign: {} });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('authentication_required');
  });

  it('is still verified: a bad one is refused', async () => {
    gw = await secureGateway();
    const forged = gw.request({ ...whoami, sign: {} });
    forged.headers.signature = forged.headers.signature!.replace(/:([A-Za-z0-9+/])/, (_, c: string) => `:${c === 'A' ? 'B' : 'A'}`);
    expect((await gw.send(forged)).json().code).toBe('signature_invalid');
  });
});

describe('auth.signatures.profiles', () => {
  it("a listed profile's signature authenticates that platform; a self-hosted one beside it stays anonymous", async () => {
    gw = await secureGateway({ tenant: (platform) => ({ auth: { required: true, signatures: { profiles: [platform.url()] } } }) });
    gw.publish(SELF_HOSTED, [gw.platformKey.publicJwk]);
    const listed = await gw.call({ ...order, sign: {} });
    expect(listed.statusCode).toBe(200);
    expect(listed.json().principal).toEqual({ kind: 'platform', profileUrl: gw.platform.url(), via: 'signature' });
    const selfHosted = await gw.call({ ...whoami, sign: {}, profile: SELF_HOSTED });
    expect(selfHosted.statusCode).toBe(401);
    expect(selfHosted.json().code).toBe('authentication_required');
  });
});

describe('auth.signatures.any_profile (the documented opt-in)', () => {
  it('a signature from any profile authenticates it, marked as proven only by keys it published itself', async () => {
    gw = await secureGateway({ tenant: { auth: { required: true, signatures: { any_profile: true } } } });
    gw.publish(SELF_HOSTED, [gw.platformKey.publicJwk]);
    const res = await gw.call({ ...order, sign: {}, profile: SELF_HOSTED });
    expect(res.statusCode).toBe(200);
    expect(res.json().principal).toEqual({
      kind: 'platform',
      profileUrl: gw.platform.url(SELF_HOSTED),
      via: 'signature',
      selfPublished: true,
    });
    expect((await gw.call({ ...whoami, sign: false })).statusCode).toBe(401);
  });
});

describe('configuration', () => {
  it('accept: [signature] without saying whose signatures count fails at start-up, naming the fix', () => {
    expect(() => new Authenticator({ accept: ['signature'] }, true, 'tenants/shop.yaml')).toThrow(ConfigError);
    expect(() => new Authenticator({ accept: ['signature'] }, true, 'tenants/shop.yaml')).toThrow(/\$\.auth\.signatures/);
    expect(() => new Authenticator({ accept: ['signature'], signatures: { any_profile: true } }, true, 'x.yaml')).not.toThrow();
  });
});
