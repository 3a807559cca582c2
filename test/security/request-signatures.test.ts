/** Incoming request signatures per tenant policy (spec part 2 §5), over REST and MCP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bothSignatures, signCovering, withHeader } from './helpers/craft.js';
import { newSigningKey, secureGateway, type SecureGateway } from './helpers/secure-gateway.js';

const RSA_KEY = {
  kid: 'rsa-1',
  kty: 'RSA',
  n:
    'sXchDaQebHnPiGvyDOAT4saGEUetSyo9MKLOoWFsueri23bOdgWp4Dy1WlUzewbgBHod5pcM9H95GQRV3JDXboIRROSBigeC5yjU' +
    '1hGzHHyXss8UDprecbAYxknTcQkhslANGRUZmdTOQ5qTRsLAt6BTYuyvVRdhS8exSZEy_c4gs_7svlJJQ4H9_NxsiIoLwAEk7-Q3' +
    'UXERGYw_75IDrGA84-lA_-Ct4eTlXHBIY2EaV7t7LjJaynVJCpkv4LKjTTAumiGUIuQhrNhZLuF_RJLqHpM2kgWFLU7-VTdL1VbC' +
    '2tejvcI2BlMkEpk1BzBZI0KQB0GaDWFLN-aEAw3vRw',
  e: 'AQAB',
};
const bump = { method: 'POST' as const, path: '/counters/c1/bump', body: { by: 1 } };
const whoami = { method: 'GET' as const, path: '/whoami' };
const COVERED = ['@method', '@authority', '@path', 'proto-agent', 'idempotency-key', 'content-type', 'content-digest'];

describe('verify_requests: required', () => {
  let gw: SecureGateway;
  let clock = Date.parse('2026-05-01T12:00:00Z');
  beforeAll(async () => {
    gw = await secureGateway({
      tenant: (platform) => ({ signing: { verify_requests: 'required' }, auth: { signatures: { profiles: [platform.url()] } } }),
      now: () => clock,
    });
  });
  afterAll(() => gw.close());

  it('accepts a signed request, and the signature authenticates the platform', async () => {
    const res = await gw.call(whoami);
    expect(res.statusCode).toBe(200);
    expect(res.json().principal).toEqual({ kind: 'platform', profileUrl: gw.platform.url(), via: 'signature' });
    const write = await gw.call(bump);
    expect(write.statusCode).toBe(201);
  });

  it('401 signature_missing for an unsigned request', async () => {
    const res = await gw.call({ ...whoami, sign: false });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'signature_missing' });
  });

  it('400 digest_mismatch when the body is changed after signing', async () => {
    const signed = gw.request(bump);
    const res = await gw.send({ ...signed, payload: JSON.stringify({ by: 9 }) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'digest_mismatch' });
  });

  it('401 signature_invalid when a covered header or the signature itself is changed', async () => {
    const signed = gw.request(bump);
    const header = await gw.send(withHeader(signed, 'idempotency-key', 'another-key-0001'));
    expect(header.statusCode).toBe(401);
    expect(header.json()).toMatchObject({ code: 'signature_invalid', content: expect.stringContaining('does not verify') });
    const otherSignature = gw.request({ ...bump, body: { by: 2 } }).headers.signature!;
    const forged = await gw.send(withHeader(signed, 'signature', otherSignature));
    expect(forged.statusCode).toBe(401);
    expect(forged.json().code).toBe('signature_invalid');
    expect((await gw.send(signed)).statusCode).toBe(201);
  });

  it('401 key_not_found for a key the profile does not publish', async () => {
    const stranger = await newSigningKey();
    const res = await gw.call({ ...whoami, sign: { key: stranger } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'key_not_found', content: expect.stringContaining(stranger.kid) });
  });

  it('401 signature_invalid for a signature that covers only @authority', async () => {
    const narrow = signCovering(gw.request(bump), ['@authority'], gw.platformKey, { created: Math.floor(clock / 1000) });
    const res = await gw.send(narrow);
    expect(res.statusCode).toBe(401);
    expect(res.json().content).toMatch(
      /does not cover the required components @method, @path, proto-agent, idempotency-key, content-type, content-digest/,
    );
  });

  it('401 signature_expired past expires or max age, and signature_invalid when created is in the future', async () => {
    const expired = await gw.call({ ...whoami, sign: { now: () => clock - 120_000, expiresInSeconds: 30 } });
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toMatchObject({ code: 'signature_expired', content: expect.stringContaining('expired') });
    const old = await gw.call({ ...whoami, sign: { now: () => clock - 10 * 60_000 } });
    expect(old.json()).toMatchObject({ code: 'signature_expired', content: expect.stringContaining('older') });
    const future = await gw.call({ ...whoami, sign: { now: () => clock + 5 * 60_000 } });
    expect(future.json()).toMatchObject({ code: 'signature_invalid', content: expect.stringContaining('future') });
    // Within the allowed skew both ways, and the same request passes once the clock catches up.
    expect((await gw.call({ ...whoami, sign: { now: () => clock + 30_000 } })).statusCode).toBe(200);
    clock += 10 * 60_000;
    expect((await gw.call({ ...whoami, sign: { now: () => clock - 10_000 } })).statusCode).toBe(200);
  });

  it('verifies ES384 and EdDSA keys from the profile as well', async () => {
    for (const alg of ['ES384', 'EdDSA'] as const) {
      const key = await newSigningKey(alg);
      gw.publish(`/p/${alg}`, [key.publicJwk]);
      const res = await gw.call({ ...bump, sign: { key }, profile: `/p/${alg}` });
      expect(res.statusCode, alg).toBe(201);
    }
  });

  it('a key type it cannot use does not break the key set; a signature by that key alone is 400 algorithm_unsupported', async () => {
    gw.publish('/p/mixed', [RSA_KEY, { kid: 'no-type' }, gw.platformKey.publicJwk]);
    const good = await gw.call({ ...bump, profile: '/p/mixed' });
    expect(good.statusCode).toBe(201);

    // Claims the RSA key's kid: the verifier must stop at the key type, before any cryptography.
    const rsaSigner = { ...gw.platformKey, kid: 'rsa-1' };
    const rsaOnly = signCovering(gw.request({ ...bump, profile: '/p/mixed' }), COVERED, rsaSigner, { created: Math.floor(clock / 1000) });
    const unsupported = await gw.send(rsaOnly);
    expect(unsupported.statusCode).toBe(400);
    expect(unsupported.json()).toMatchObject({ code: 'algorithm_unsupported', content: expect.stringContaining('"RSA"') });

    // Beside a signature that verifies, the unusable one is skipped.
    const pair = gw.request({ ...bump, profile: '/p/mixed' });
    const accepted = await gw.send(
      bothSignatures(pair, signCovering(pair, COVERED, rsaSigner, { created: Math.floor(clock / 1000) }, 'rsa')),
    );
    expect(accepted.statusCode).toBe(201);
  });

  it('accepts the Web Bot Auth shape and rejects web-bot-auth signatures whose kid is not the thumbprint', async () => {
    const webBotAuth = { agentUrl: 'https://agent.example/.well-known/proto' };
    const signed = gw.request({ ...bump, sign: { webBotAuth } });
    expect(signed.headers['signature-agent']).toBe('sig1="https://agent.example/.well-known/proto";type="profile"');
    expect(signed.headers['signature-input']).toMatch(/"signature-agent";key="sig1"/);
    expect(signed.headers['signature-input']).toMatch(/;expires=\d+;keyid="[\w-]{43}";nonce="[\w-]{86}";tag="web-bot-auth"$/);
    expect((await gw.send(signed)).statusCode).toBe(201);

    const renamed = { ...gw.platformKey, kid: 'my-key-1', publicJwk: { ...gw.platformKey.publicJwk, kid: 'my-key-1' } };
    gw.publish('/p/renamed', [renamed.publicJwk]);
    expect((await gw.call({ ...bump, profile: '/p/renamed', sign: { key: renamed } })).statusCode).toBe(201);
    const res = await gw.call({ ...bump, profile: '/p/renamed', sign: { key: renamed, webBotAuth } });
    expect(res.statusCode).toBe(401);
    expect(res.json().content).toMatch(/thumbprint/);
  });

  it('verifies the HTTP POST that carries an MCP tools/call', async () => {
    const rpc = (profile: string) => ({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'who_am_i', arguments: { meta: { 'proto-agent': { profile } } } },
    });
    const signed = gw.request({
      method: 'POST',
      path: '/mcp',
      body: rpc(gw.platform.url()),
      headers: { 'idempotency-key': undefined, accept: 'application/json' },
    });
    const ok = await gw.send(signed);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().result.structuredContent.principal).toMatchObject({ kind: 'platform', via: 'signature' });

    const tampered = await gw.send({ ...signed, payload: JSON.stringify({ ...rpc(gw.platform.url()), id: 2 }) });
    expect(tampered.json().error).toMatchObject({ data: { code: 'digest_mismatch', http_status: 400 } });
    const unsigned = await gw.call({ method: 'POST', path: '/mcp', body: rpc(gw.platform.url()), sign: false });
    expect(unsigned.json().error).toMatchObject({ data: { code: 'signature_missing', http_status: 401 } });
  });
});

describe('a signature’s lifetime and its nonce', () => {
  let gw: SecureGateway;
  let clock = Date.parse('2026-05-01T12:00:00Z');
  const seconds = () => Math.floor(clock / 1000);
  const GET_COVERED = ['@method', '@authority', '@path', 'proto-agent'];
  const signedWhoami = (params: Parameters<typeof signCovering>[3]) =>
    signCovering(gw.request(whoami), GET_COVERED, gw.platformKey, params);
  const YEAR = 365 * 86_400;
  beforeAll(async () => {
    gw = await secureGateway({ now: () => clock });
  });
  afterAll(() => gw.close());

  it('401 signature_invalid for a signature with neither created nor expires: its age could not be bounded', async () => {
    const res = await gw.send(signedWhoami({}));
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'signature_invalid', content: expect.stringContaining('neither created nor expires') });
  });

  it('expires alone: accepted within the window the tenant allows (max age), refused further ahead', async () => {
    expect((await gw.send(signedWhoami({ expires: seconds() + 240 }))).statusCode).toBe(200);
    const years = await gw.send(signedWhoami({ expires: seconds() + 3 * YEAR }));
    expect(years.statusCode).toBe(401);
    expect(years.json()).toMatchObject({ code: 'signature_invalid', content: expect.stringContaining('further ahead') });
  });

  it('created with an expires years ahead: accepted only for the max age after created', async () => {
    const signed = signedWhoami({ created: seconds(), expires: seconds() + 3 * YEAR });
    expect((await gw.send(signed)).statusCode).toBe(200);
    clock += (300 + 60 + 1) * 1000; // max age and clock skew, then a second more
    const later = await gw.send(signed);
    expect(later.statusCode).toBe(401);
    expect(later.json()).toMatchObject({ code: 'signature_expired' });
  });

  it('a signature with a nonce is accepted once; its replay is 401, a fresh nonce passes', async () => {
    const signed = signedWhoami({ created: seconds(), nonce: 'n-0123456789abcdef' });
    expect((await gw.send(signed)).statusCode).toBe(200);
    const replay = await gw.send(signed);
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toMatchObject({ code: 'signature_invalid', content: expect.stringContaining('nonce') });
    expect((await gw.send(signedWhoami({ created: seconds(), nonce: 'n-fedcba9876543210' }))).statusCode).toBe(200);
    // A signature without a nonce is not remembered: replays are the Idempotency-Key's business (spec part 2 §5.4).
    const plain = signedWhoami({ created: seconds() });
    expect((await gw.send(plain)).statusCode).toBe(200);
    expect((await gw.send(plain)).statusCode).toBe(200);
  });

  it('a replayed Web Bot Auth signature (which carries a nonce) is refused', async () => {
    const signed = gw.request({ ...bump, sign: { webBotAuth: { agentUrl: 'https://agent.example/.well-known/proto' } } });
    expect((await gw.send(signed)).statusCode).toBe(201);
    expect((await gw.send(signed)).json()).toMatchObject({ code: 'signature_invalid', content: expect.stringContaining('nonce') });
  });

  it('a signature that does not verify does not use up its nonce', async () => {
    const signed = signedWhoami({ created: seconds(), nonce: 'n-not-burnt-by-forgery' });
    // The signature of another base (another nonce) under this Signature-Input: it does not verify.
    const other = signedWhoami({ created: seconds(), nonce: 'n-another-one' }).headers.signature!;
    const forged = withHeader(signed, 'signature', other);
    expect((await gw.send(forged)).statusCode).toBe(401);
    expect((await gw.send(signed)).statusCode).toBe(200);
  });
});

describe('verify_requests: optional (the default)', () => {
  let gw: SecureGateway;
  beforeAll(async () => {
    gw = await secureGateway();
  });
  afterAll(() => gw.close());

  it('401 signature_missing for Signature-Input without Signature, or a label Signature lacks', async () => {
    const signed = gw.request(bump);
    const { signature: _signature, ...inputOnly } = signed.headers;
    const res = await gw.send({ ...signed, headers: inputOnly });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'signature_missing' });
    const relabelled = await gw.send(withHeader(signed, 'signature', signed.headers.signature!.replace(/^sig1=/, 'other=')));
    expect(relabelled.statusCode).toBe(401);
    expect(relabelled.json()).toMatchObject({ code: 'signature_missing', content: expect.stringContaining('sig1') });
  });

  it('serves an unsigned request anonymously and still rejects a bad signature', async () => {
    const unsigned = await gw.call({ ...whoami, sign: false });
    expect(unsigned.statusCode).toBe(200);
    expect(unsigned.json().principal).toEqual({ kind: 'anonymous' });
    const signed = gw.request(bump);
    const tampered = await gw.send(withHeader(signed, 'idempotency-key', 'changed-after-signing'));
    expect(tampered.statusCode).toBe(401);
  });
});

describe('verify_requests: off', () => {
  let gw: SecureGateway;
  beforeAll(async () => {
    gw = await secureGateway({ tenant: { signing: { verify_requests: 'off' } } });
  });
  afterAll(() => gw.close());

  it('ignores signatures entirely, good or bad', async () => {
    const signed = gw.request(bump);
    const res = await gw.send(withHeader(signed, 'idempotency-key', 'changed-after-signing'));
    expect(res.statusCode).toBe(201);
    expect((await gw.call(whoami)).json().principal).toEqual({ kind: 'anonymous' });
  });
});
