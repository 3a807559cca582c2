import { createHmac, createSecretKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hmac, signatureMatches } from '../../../adapters/kit/hmac.js';

describe('adapter kit: HMAC', () => {
  it('digests the parts in order, as one HMAC over their concatenation', () => {
    const whole = createHmac('sha256', 'k').update('t=1.{"a":1}').digest();
    expect(hmac('sha256', 'k', 't=1.', Buffer.from('{"a":1}'))).toEqual(whole);
    expect(hmac('sha256', 'k', '{"a":1}', 't=1.')).not.toEqual(whole);
  });

  it('gives the same bytes for a KeyObject key (SHA-256 without createHmac) as for the raw key, whatever the algorithm', () => {
    const key = createSecretKey(Buffer.from('store-call-secret'));
    for (const algorithm of ['sha256', 'sha512'])
      expect(hmac(algorithm, key, 't=1.', Buffer.from('{"a":1}'))).toEqual(hmac(algorithm, 'store-call-secret', 't=1.{"a":1}'));
  });

  it('accepts only the exact signature, and a shorter or longer one without throwing', () => {
    const expected = hmac('sha256', 'secret', 'body');
    expect(signatureMatches(Buffer.from(expected), expected)).toBe(true);
    const flipped = Buffer.from(expected);
    flipped[0] = flipped[0]! ^ 1;
    expect(signatureMatches(flipped, expected)).toBe(false);
    expect(signatureMatches(expected.subarray(1), expected)).toBe(false);
    expect(signatureMatches(Buffer.concat([expected, Buffer.from([0])]), expected)).toBe(false);
  });
});
