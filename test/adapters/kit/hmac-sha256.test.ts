/** hmacSha256 gives createHmac's bytes, whatever the key's length and the data's characters. */
import { createHmac, createSecretKey, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hmacSha256 } from '../../../adapters/kit/hmac-sha256.js';

describe('hmacSha256', () => {
  it('matches createHmac for keys shorter than, as long as and longer than a block, and any UTF-8 data', () => {
    for (const length of [1, 32, 64, 65, 200]) {
      const key = createSecretKey(randomBytes(length));
      for (const data of ['', 'shop\ncheckout\nWyJjaGtfMSJd', 'é€😀 and a long '.repeat(40)]) {
        expect(hmacSha256(key, data).toString('hex'), `key of ${length} bytes`).toBe(createHmac('sha256', key).update(data).digest('hex'));
      }
    }
  });

  it('matches createHmac over several parts, text and bytes, as a signed store call or webhook gives them', () => {
    const key = createSecretKey(randomBytes(32));
    const parts = ['1700000000', '.', Buffer.from('{"id":"evt_1","amount":"12.50"}'), Buffer.alloc(0), 'ü'];
    const expected = createHmac('sha256', key);
    for (const part of parts) expected.update(part);
    expect(hmacSha256(key, ...parts).toString('hex')).toBe(expected.digest('hex'));
  });
});
