/** hmacSha256 gives createHmac's bytes, whatever the key's length and the data's characters. */
import { createHmac, createSecretKey, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hmacSha256 } from '../../src/security/hmac-sha256.js';

describe('hmacSha256', () => {
  it('matches createHmac for keys shorter than, as long as and longer than a block, and any UTF-8 data', () => {
    for (const length of [1, 32, 64, 65, 200]) {
      const key = createSecretKey(randomBytes(length));
      for (const data of ['', 'shop\ncheckout\nWyJjaGtfMSJd', 'é€😀 and a long '.repeat(40)]) {
        expect(hmacSha256(key, data).toString('hex'), `key of ${length} bytes`).toBe(createHmac('sha256', key).update(data).digest('hex'));
      }
    }
  });
});
