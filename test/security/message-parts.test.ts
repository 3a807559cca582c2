/** Content-Digest, the Signature fields and the signature base on their own. */
import { createHash } from 'node:crypto';
import { serializeDictionary } from 'structured-headers';
import { describe, expect, it } from 'vitest';
import { checkContentDigest, contentDigest } from '../../src/security/content-digest.js';
import { requestMessage } from '../../src/security/http-message.js';
import { component, signatureBase } from '../../src/security/signature-base.js';
import { parseSignatures } from '../../src/security/signature-fields.js';

const HELLO = '{"hello": "world"}';
const HELLO_SHA256 = 'sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:'; // RFC 9530 / RFC 9421 examples

describe('Content-Digest', () => {
  it('hashes the raw bytes, matching the RFC example value', () => {
    expect(contentDigest(HELLO)).toBe(HELLO_SHA256);
    expect(contentDigest(Buffer.from(HELLO))).toBe(HELLO_SHA256);
    for (const body of ['', 'x', HELLO.repeat(50)]) {
      expect(contentDigest(body)).toBe(serializeDictionary({ 'sha-256': createHash('sha256').update(body).digest() }));
    }
    // Same JSON, other bytes: another digest (no canonicalization).
    expect(contentDigest('{"hello":"world"}')).not.toBe(HELLO_SHA256);
  });

  it('checks sha-256 and sha-512 members, and refuses malformed or unknown-only fields', () => {
    expect(() => checkContentDigest(HELLO_SHA256, HELLO)).not.toThrow();
    expect(() => checkContentDigest(`md5=:AAAA:, ${HELLO_SHA256}`, HELLO)).not.toThrow();
    expect(() => checkContentDigest(HELLO_SHA256, '{"hello": "World"}')).toThrow(
      expect.objectContaining({ status: 400, code: 'digest_mismatch' }),
    );
    expect(() => checkContentDigest('sha-256=abc', HELLO)).toThrow(expect.objectContaining({ code: 'invalid_content_digest' }));
    expect(() => checkContentDigest('md5=:AAAA:', HELLO)).toThrow(expect.objectContaining({ code: 'invalid_content_digest' }));
    expect(() => checkContentDigest('sha-256=:X48E9', HELLO)).toThrow(expect.objectContaining({ code: 'invalid_content_digest' }));
  });
});

describe('Signature-Input and Signature', () => {
  const input = 'a=("@method" "signature-agent";key="a");created=1;keyid="k", b=();keyid="j";tag="t"';
  const signature = 'a=:AQID:, b=:BAU=:';

  it('parses several labelled signatures with their parameters', () => {
    const [a, b] = parseSignatures(input, signature);
    expect(a).toMatchObject({
      label: 'a',
      params: { created: 1, keyid: 'k' },
      serializedParams: '("@method" "signature-agent";key="a");created=1;keyid="k"',
    });
    expect(a!.signature).toEqual(Buffer.from([1, 2, 3]));
    expect(b).toMatchObject({ label: 'b', components: [], params: { keyid: 'j', tag: 't' } });
  });

  it('refuses malformed fields with 401 signature_invalid', () => {
    const invalid = (i: string, s: string) =>
      expect(() => parseSignatures(i, s)).toThrow(expect.objectContaining({ status: 401, code: 'signature_invalid' }));
    invalid('a=("@method"', signature);
    invalid('a=("@method");created="yesterday"', 'a=:AQID:');
    invalid('a=("@method" "@method")', 'a=:AQID:');
    invalid('a=(@method)', 'a=:AQID:');
    invalid('a="@method"', 'a=:AQID:');
    invalid(Array.from({ length: 9 }, (_, i) => `s${i}=()`).join(', '), 'a=:AQID:');
  });

  it('a label of Signature-Input without its Signature member is 401 signature_missing', () => {
    expect(() => parseSignatures('a=("@method");created=1', 'b=:AQID:')).toThrow(
      expect.objectContaining({ status: 401, code: 'signature_missing' }),
    );
  });
});

describe('signature base components', () => {
  const message = requestMessage({
    method: 'post',
    url: 'https://Shop.Example/a%20b?x=1&y',
    headers: {
      'Signature-Agent': 'sig1="https://agent.example";type="profile", sig2="https://other.example"',
      'X-Multi': ' one ',
      Empty: '',
    },
  });
  const base = (...ids: ReturnType<typeof component>[]) => signatureBase(message, ids, '()', 's').toString().split('\n').slice(0, -1);

  it('derives @method, @authority, @path and @query from the request target', () => {
    expect(base(component('@method'), component('@authority'), component('@path'), component('@query'))).toEqual([
      '"@method": POST',
      '"@authority": shop.example',
      '"@path": /a%20b',
      '"@query": ?x=1&y',
    ]);
  });

  it('trims field values and selects dictionary members with ;key', () => {
    expect(base(component('x-multi'), component('empty'), component('signature-agent', { key: 'sig1' }))).toEqual([
      '"x-multi": one',
      '"empty": ',
      '"signature-agent";key="sig1": "https://agent.example";type="profile"',
    ]);
  });

  it('refuses what it cannot reproduce: absent fields or members, unsupported components and parameters', () => {
    const refused = (id: ReturnType<typeof component>) =>
      expect(() => base(id)).toThrow(expect.objectContaining({ code: 'signature_invalid' }));
    refused(component('date'));
    refused(component('signature-agent', { key: 'sig9' }));
    refused(component('x-multi', { key: 'a' }));
    refused(component('@status'));
    refused(component('@target-uri'));
    refused(component('x-multi', { sf: 'true' }));
    refused(component('X-Multi'));
  });
});
