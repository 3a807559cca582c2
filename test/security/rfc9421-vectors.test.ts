/**
 * RFC 9421 appendix B test vectors, proving byte-for-byte interop of the signature base and the
 * signature encodings.
 *
 * Where the vectors come from (nothing outside the npm registry is reachable here):
 * - keys B.1.3 `test-key-ecc-p256` and B.1.4 `test-key-ed25519`: dadrus/httpsig, rfc_vectors_test.go
 *   (PEM, converted here to JWK with node:crypto; the Ed25519 JWK also appears verbatim in that
 *   form in the RFC);
 * - messages, Signature-Input and Signature of B.2.4 and B.2.6: dadrus/httpsig, verifier_test.go
 *   ("B.2.4. signing a response using ecdsa-p256-sha256", "B.2.6. signing a request using ed25519");
 * - the B.2.6 signature base: pyauth/http-message-signatures test/test.py and the RFC text;
 *   the B.2.4 base is rebuilt from RFC 9421 §B.2.4 and is proven by the RFC signature verifying over it.
 */
import { KeyObject, createPrivateKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ALGORITHMS, signBytes, verifyBytes } from '../../src/security/algorithms.js';
import { requestMessage, type HttpResponseMessage } from '../../src/security/http-message.js';
import { KeySet } from '../../src/security/key-set.js';
import { signatureBase } from '../../src/security/signature-base.js';
import { parseSignatures } from '../../src/security/signature-fields.js';
import { verifyRequest, verifyResponse } from '../../src/security/verify.js';

const P256_PUBLIC = {
  kid: 'test-key-ecc-p256',
  kty: 'EC',
  crv: 'P-256',
  x: 'qIVYZVLCrPZHGHjP17CTW0_-D9Lfw0EkjqF7xB4FivA',
  y: 'Mc4nN9LTDOBhfoUeg8Ye9WedFRhnZXZJA12Qp0zZ6F0',
};
const ED25519_PUBLIC = { kid: 'test-key-ed25519', kty: 'OKP', crv: 'Ed25519', x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs' };
const ED25519_PRIVATE_PEM =
  '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIJ+DYvh6SEqVTm50DFtMDoQikTmiCqirVv9mWG9qfSnF\n-----END PRIVATE KEY-----';

const CREATED_MS = 1618884473 * 1000;
const at = { now: () => CREATED_MS };

const B24_RESPONSE: HttpResponseMessage = {
  status: 200,
  headers: {
    'content-type': 'application/json',
    'content-digest': 'sha-512=:mEWXIS7MaLRuGgxOBdODa3xqM1XdEvxoYhvlCFJ41QJgJc4GTsPp29l5oGX69wWdXymyU0rjJuahq4l5aGgfLQ==:',
    'content-length': '23',
    'signature-input': 'sig-b24=("@status" "content-type" "content-digest" "content-length");created=1618884473;keyid="test-key-ecc-p256"',
    signature: 'sig-b24=:wNmSUAhwb5LxtOtOpNa6W5xj067m5hFrj0XQ4fvpaCLx0NKocgPquLgyahnzDnDAUy5eCdlYUEkLIj+32oiasw==:',
  },
  body: '{"message": "good dog"}',
};

const B24_BASE = [
  '"@status": 200',
  '"content-type": application/json',
  '"content-digest": sha-512=:mEWXIS7MaLRuGgxOBdODa3xqM1XdEvxoYhvlCFJ41QJgJc4GTsPp29l5oGX69wWdXymyU0rjJuahq4l5aGgfLQ==:',
  '"content-length": 23',
  '"@signature-params": ("@status" "content-type" "content-digest" "content-length");created=1618884473;keyid="test-key-ecc-p256"',
].join('\n');

const B26_REQUEST = requestMessage({
  method: 'POST',
  url: 'https://example.com/foo?param=Value&Pet=dog',
  headers: {
    Host: 'example.com',
    Date: 'Tue, 20 Apr 2021 02:07:55 GMT',
    'Content-Type': 'application/json',
    'Content-Length': '18',
    'Signature-Input':
      'sig-b26=("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"',
    Signature: 'sig-b26=:wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQCK1u02Gb04v9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw==:',
  },
  body: '{"hello": "world"}',
});

const B26_BASE = [
  '"date": Tue, 20 Apr 2021 02:07:55 GMT',
  '"@method": POST',
  '"@path": /foo',
  '"@authority": example.com',
  '"content-type": application/json',
  '"content-length": 18',
  '"@signature-params": ("date" "@method" "@path" "@authority" "content-type" ' +
    '"content-length");created=1618884473;keyid="test-key-ed25519"',
].join('\n');

function parsedOf(headers: { 'signature-input'?: unknown; signature?: unknown }) {
  return parseSignatures(String(headers['signature-input']), String(headers.signature))[0]!;
}

describe('RFC 9421 B.2.4: a response signed with ecdsa-p256-sha256', () => {
  it('builds the RFC signature base byte for byte', () => {
    const sig = parsedOf(B24_RESPONSE.headers);
    expect(signatureBase(B24_RESPONSE, sig.components, sig.serializedParams, sig.label).toString('utf8')).toBe(B24_BASE);
  });

  it('verifies the RFC signature (raw r||s) with the verifier, Content-Digest included', async () => {
    const keys = await KeySet.from([P256_PUBLIC]);
    await expect(verifyResponse(B24_RESPONSE, keys, at)).resolves.toEqual([{ label: 'sig-b24', kid: 'test-key-ecc-p256' }]);
  });

  it('rejects the RFC response once its body is changed', async () => {
    const keys = await KeySet.from([P256_PUBLIC]);
    await expect(verifyResponse({ ...B24_RESPONSE, body: '{"message": "bad dog"}' }, keys, at)).rejects.toMatchObject({
      status: 400,
      code: 'digest_mismatch',
    });
  });
});

describe('RFC 9421 B.2.6: a request signed with ed25519', () => {
  it('builds the RFC signature base byte for byte', () => {
    const sig = parsedOf(B26_REQUEST.headers);
    expect(signatureBase(B26_REQUEST, sig.components, sig.serializedParams, sig.label).toString('utf8')).toBe(B26_BASE);
  });

  it('the RFC signature verifies over that base with the published key', async () => {
    const sig = parsedOf(B26_REQUEST.headers);
    const key = (await KeySet.from([ED25519_PUBLIC])).get('test-key-ed25519')!.usable!;
    const base = signatureBase(B26_REQUEST, sig.components, sig.serializedParams, sig.label);
    expect(verifyBytes(key.algorithm, key.publicKey, base, sig.signature)).toBe(true);
    expect(verifyBytes(key.algorithm, key.publicKey, Buffer.from(B26_BASE.replace('POST', 'PUT')), sig.signature)).toBe(false);
  });

  it('signing the RFC base with the RFC key reproduces the RFC signature (Ed25519 is deterministic)', () => {
    const privateKey: KeyObject = createPrivateKey(ED25519_PRIVATE_PEM);
    expect(signBytes(ALGORITHMS.EdDSA, privateKey, Buffer.from(B26_BASE)).toString('base64')).toBe(
      'wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQCK1u02Gb04v9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw==',
    );
  });

  it('the protocol verifier still refuses it: it leaves out @query and content-digest (spec part 2 §5.2)', async () => {
    const keys = await KeySet.from([ED25519_PUBLIC]);
    await expect(verifyRequest(B26_REQUEST, keys, at)).rejects.toMatchObject({
      status: 401,
      code: 'signature_invalid',
      message: expect.stringContaining('@query, content-digest'),
    });
  });
});
