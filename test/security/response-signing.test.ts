/** Signed responses over REST and MCP, published keys, and key rotation (spec part 2 §4.1, §5.3). */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentDigest } from '../../src/security/content-digest.js';
import { requestMessage } from '../../src/security/http-message.js';
import { KeySet } from '../../src/security/key-set.js';
import { generatePrivateJwk, loadKeyring, type Keyring } from '../../src/security/keyring.js';
import { signRequest } from '../../src/security/sign.js';
import { verifyRequest, verifyResponse } from '../../src/security/verify.js';
import { HOST, secureGateway, type SecureGateway } from './helpers/secure-gateway.js';

const at = { now: Date.now };
const whoami = { method: 'GET' as const, path: '/whoami', sign: false as const };

let env: Record<string, string>;
let oldKid: string;
let newKid: string;
const both = () => ({ keys: [{ env: 'OLD_KEY' }, { env: 'NEW_KEY' }], active_kid: newKid });

beforeAll(async () => {
  const [oldJwk, newJwk] = await Promise.all([generatePrivateJwk('ES256'), generatePrivateJwk('EdDSA')]);
  env = { OLD_KEY: JSON.stringify(oldJwk), NEW_KEY: JSON.stringify(newJwk) };
  oldKid = oldJwk.kid;
  newKid = newJwk.kid;
});

const load = (signing: { keys: Array<{ env: string }>; active_kid: string }) => loadKeyring(signing, 'test/tenant.yaml', '.', env);

async function publishedKeys(
  gw: SecureGateway,
): Promise<{ json: { keys: Array<Record<string, unknown>>; signing_keys: unknown[] }; keys: KeySet }> {
  const json = (await gw.app.inject({ method: 'GET', url: '/.well-known/proto', headers: { host: HOST } })).json();
  return { json, keys: await KeySet.from(json.keys) };
}

const asResponse = (res: LightMyRequestResponse) => ({
  status: res.statusCode,
  headers: res.headers as Record<string, string>,
  body: res.rawPayload,
});

describe('with two keys, the newer one active', () => {
  let gw: SecureGateway;
  let keyring: Keyring;
  beforeAll(async () => {
    keyring = await load(both());
    gw = await secureGateway({ keyring, tenant: { signing: both() } });
  });
  afterAll(() => gw.close());

  it('publishes both public keys (keys and signing_keys), never a private member', async () => {
    const { json } = await publishedKeys(gw);
    expect(json.keys.map((k) => k.kid)).toEqual([oldKid, newKid]);
    expect(json.keys.map((k) => k.alg)).toEqual(['ES256', 'EdDSA']);
    expect(json.keys.every((k) => k.use === 'sig' && !('d' in k))).toBe(true);
    expect(json.signing_keys).toEqual(json.keys);
  });

  it('signs a REST response over the exact bytes sent, with the active key', async () => {
    const res = await gw.call(whoami);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-digest']).toBe(contentDigest(res.rawPayload));
    expect(res.headers['signature-input']).toMatch(
      new RegExp(`^sig1=\\("@status" "content-type" "content-digest"\\);created=\\d+;keyid="${newKid}"$`),
    );
    const { keys } = await publishedKeys(gw);
    await expect(verifyResponse(asResponse(res), keys, at)).resolves.toEqual([{ label: 'sig1', kid: newKid }]);
    const altered = Buffer.from(res.body.replace('anonymous', 'platform!'));
    await expect(verifyResponse({ ...asResponse(res), body: altered }, keys, at)).rejects.toMatchObject({ code: 'digest_mismatch' });
    await expect(verifyResponse({ ...asResponse(res), status: 201 }, keys, at)).rejects.toMatchObject({ code: 'signature_invalid' });
  });

  it('signs transport errors and MCP responses the same way', async () => {
    const { keys } = await publishedKeys(gw);
    const error = await gw.call({ ...whoami, headers: { 'request-id': undefined } });
    expect(error.statusCode).toBe(400);
    await expect(verifyResponse(asResponse(error), keys, at)).resolves.toHaveLength(1);
    const rpc = {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'who_am_i', arguments: { meta: { 'proto-agent': { profile: gw.platform.url() } } } },
    };
    const mcp = await gw.call({ method: 'POST', path: '/mcp', body: rpc, sign: false });
    expect(mcp.json().result.structuredContent.principal).toEqual({ kind: 'anonymous' });
    await expect(verifyResponse(asResponse(mcp), keys, at)).resolves.toEqual([{ label: 'sig1', kid: newKid }]);
  });

  it('signs a webhook-style request that verifies with any published key, the old one included', async () => {
    const webhook = {
      method: 'POST',
      url: 'https://platform.example/webhooks/orders',
      headers: {
        'content-type': 'application/json',
        'webhook-id': 'evt_1',
        'webhook-timestamp': '1777636800',
        'proto-agent': `profile="https://${HOST}/.well-known/proto"`,
      },
      body: '{"id":"ord_1"}',
    };
    const options = { now: Date.now, cover: ['webhook-id', 'webhook-timestamp'] };
    const byNew = signRequest(webhook, { ...options, key: keyring.active! });
    const byOld = signRequest(webhook, { ...options, key: keyring.keys[0]! });
    expect(byNew['signature-input']).toMatch(
      /^sig1=\("@method" "@authority" "@path" "proto-agent" "content-type" "content-digest" "webhook-id" "webhook-timestamp"\);created=\d+;keyid=/,
    );
    const { keys } = await publishedKeys(gw);
    for (const headers of [byNew, byOld]) {
      await expect(verifyRequest(requestMessage({ ...webhook, headers }), keys, at)).resolves.toHaveLength(1);
      await expect(verifyRequest(requestMessage({ ...webhook, headers }), await keyring.verificationKeys(), at)).resolves.toHaveLength(1);
    }
  });
});

describe('after the old key is removed from the configuration', () => {
  it('no longer publishes it, so its signatures stop verifying, while the new key keeps working', async () => {
    const before = await load(both());
    const after = await load({ keys: [{ env: 'NEW_KEY' }], active_kid: newKid });
    const gw = await secureGateway({ keyring: after, tenant: { signing: { keys: [{ env: 'NEW_KEY' }], active_kid: newKid } } });
    try {
      const { json, keys } = await publishedKeys(gw);
      expect(json.keys.map((k) => k.kid)).toEqual([newKid]);
      const request = { method: 'POST', url: 'https://platform.example/hook', headers: { 'content-type': 'application/json' }, body: '{}' };
      const byOld = signRequest(request, { key: before.keys[0]!, now: Date.now });
      await expect(verifyRequest(requestMessage({ ...request, headers: byOld }), keys, at)).rejects.toMatchObject({
        status: 401,
        code: 'key_not_found',
      });
      await expect(verifyResponse(asResponse(await gw.call(whoami)), keys, at)).resolves.toHaveLength(1);
    } finally {
      await gw.close();
    }
  });
});

describe('the response signature cache', () => {
  it('reuses a signature only for byte-identical covered components within the same second', async () => {
    let clock = Date.parse('2026-05-01T12:00:00.100Z');
    const gw = await secureGateway({ keyring: await load(both()), tenant: { signing: both() }, now: () => clock });
    try {
      const { keys } = await publishedKeys(gw);
      const first = await gw.call(whoami);
      const same = await gw.call(whoami);
      expect(same.headers.signature).toBe(first.headers.signature);
      const other = await gw.call({ ...whoami, headers: { 'request-id': undefined } });
      expect(other.headers.signature).not.toBe(first.headers.signature);
      clock += 1000;
      const later = await gw.call(whoami);
      expect(later.headers['signature-input']).not.toBe(first.headers['signature-input']);
      for (const res of [first, same, other, later])
        await expect(verifyResponse(asResponse(res), keys, { now: () => clock })).resolves.toHaveLength(1);
    } finally {
      await gw.close();
    }
  });
});

describe('sign_responses: false', () => {
  it('sends no signature headers, yet still publishes its keys', async () => {
    const signing = { ...both(), sign_responses: false };
    const gw = await secureGateway({ keyring: await load(both()), tenant: { signing } });
    try {
      const res = await gw.call(whoami);
      expect(res.statusCode).toBe(200);
      expect(res.headers).not.toHaveProperty('signature');
      expect(res.headers).not.toHaveProperty('signature-input');
      expect(res.headers).not.toHaveProperty('content-digest');
      expect((await publishedKeys(gw)).json.keys).toHaveLength(2);
    } finally {
      await gw.close();
    }
  });
});
