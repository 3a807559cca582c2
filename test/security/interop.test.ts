/**
 * Interop with an independent implementation: the npm package `http-message-signatures`
 * (dhensby/node-http-message-signatures) verifies what the gateway signs, and the gateway
 * verifies what that package signs.
 */
import { createHash, createPrivateKey, createPublicKey } from 'node:crypto';
import { createSigner, createVerifier, httpbis } from 'http-message-signatures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestMessage } from '../../src/security/http-message.js';
import { KeySet } from '../../src/security/key-set.js';
import { generatePrivateJwk, loadKeyring, type Keyring } from '../../src/security/keyring.js';
import { signRequest } from '../../src/security/sign.js';
import { verifyRequest } from '../../src/security/verify.js';
import { HOST, secureGateway, type SecureGateway } from './helpers/secure-gateway.js';

let gw: SecureGateway;
let keyring: Keyring;
let privateJwk: Awaited<ReturnType<typeof generatePrivateJwk>>;

beforeAll(async () => {
  privateJwk = await generatePrivateJwk('ES256');
  const signing = { keys: [{ env: 'KEY' }], active_kid: privateJwk.kid };
  keyring = await loadKeyring(signing, 'test/tenant.yaml', '.', { KEY: JSON.stringify(privateJwk) });
  gw = await secureGateway({ keyring, tenant: { signing } });
});
afterAll(() => gw.close());

/** Their verifier, fed the public key from our published JWK through node:crypto only. */
function theirKeyLookup() {
  const publicJwk = keyring.active!.publicJwk;
  const verify = createVerifier(createPublicKey({ key: publicJwk, format: 'jwk' }), 'ecdsa-p256-sha256');
  return async ({ keyid }: { keyid?: string }) => (keyid === publicJwk.kid ? { id: keyid, algs: ['ecdsa-p256-sha256'], verify } : null);
}

const sha256 = (body: string | Buffer) => `sha-256=:${createHash('sha256').update(body).digest('base64')}:`;

describe('http-message-signatures verifies what the gateway signs', () => {
  it('a signed REST response', async () => {
    const res = await gw.call({ method: 'GET', path: '/whoami', sign: false });
    const response = { status: res.statusCode, headers: res.headers as Record<string, string> };
    await expect(
      httpbis.verifyMessage({ keyLookup: theirKeyLookup(), requiredFields: ['@status', 'content-digest', 'content-type'] }, response),
    ).resolves.toBe(true);
    expect(res.headers['content-digest']).toBe(sha256(res.rawPayload));
    const tampered = { ...response, status: 500 };
    await expect(httpbis.verifyMessage({ keyLookup: theirKeyLookup() }, tampered)).resolves.toBe(false);
  });

  it('a signed webhook-style request', async () => {
    const body = '{"id":"ord_1","event_id":"evt_1"}';
    const url = 'https://platform.example/webhooks/orders?shop=demo';
    const headers = signRequest(
      {
        method: 'POST',
        url,
        body,
        headers: {
          'Content-Type': 'application/json',
          'Webhook-Id': 'evt_1',
          'Webhook-Timestamp': '1777636800',
          'PROTO-Agent': `profile="https://${HOST}/.well-known/proto"`,
        },
      },
      { key: keyring.active!, now: Date.now, cover: ['webhook-id', 'webhook-timestamp'] },
    );
    const required = [
      '@method',
      '@authority',
      '@path',
      '@query',
      'proto-agent',
      'content-type',
      'content-digest',
      'webhook-id',
      'webhook-timestamp',
    ];
    await expect(
      httpbis.verifyMessage({ keyLookup: theirKeyLookup(), requiredFields: required }, { method: 'POST', url, headers }),
    ).resolves.toBe(true);
    expect(headers['content-digest']).toBe(sha256(body));
    await expect(
      httpbis.verifyMessage({ keyLookup: theirKeyLookup() }, { method: 'POST', url, headers: { ...headers, 'webhook-id': 'evt_2' } }),
    ).resolves.toBe(false);
  });
});

describe('the gateway verifies what http-message-signatures signs', () => {
  it('a platform request signed by the other library (its default alg and expires parameters included)', async () => {
    const platformJwk = await generatePrivateJwk('ES256');
    const { d: _private, ...publicJwk } = platformJwk;
    const body = '{"by":3}';
    const request: { method: string; url: string; headers: Record<string, string> } = {
      method: 'POST',
      url: `https://${HOST}/counters/x/bump`,
      headers: {
        'content-type': 'application/json',
        'content-digest': sha256(body),
        'idempotency-key': 'interop-0001',
        'proto-agent': 'profile="https://agent.example/.well-known/proto"',
      },
    };
    const signer = createSigner(createPrivateKey({ key: platformJwk, format: 'jwk' }), 'ecdsa-p256-sha256', platformJwk.kid);
    const signed = await httpbis.signMessage(
      {
        key: signer,
        name: 'agent',
        fields: ['@method', '@authority', '@path', 'proto-agent', 'idempotency-key', 'content-type', 'content-digest'],
      },
      request,
    );
    expect(signed.headers['Signature-Input']).toContain('alg="ecdsa-p256-sha256"');
    const keys = await KeySet.from([publicJwk]);
    const message = requestMessage({ ...request, headers: signed.headers, body });
    await expect(verifyRequest(message, keys, { now: Date.now })).resolves.toEqual([{ label: 'agent', kid: platformJwk.kid }]);
    await expect(verifyRequest({ ...message, body: '{"by":4}' }, keys, { now: Date.now })).rejects.toMatchObject({
      code: 'digest_mismatch',
    });
  });
});
