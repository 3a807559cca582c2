import { describe, expect, it } from 'vitest';
import { header } from '../../../adapters/kit/webhook-headers.js';

describe('adapter kit: webhook headers', () => {
  // Node hands headers over with lower-case names; a tenant file or a platform's docs may spell them otherwise.
  const headers = { 'x-shop-signature': 'sig', 'x-shop-event': ['first', 'second'] };

  it('finds a header by its name in any case', () => {
    expect(header(headers, 'X-Shop-Signature')).toBe('sig');
    expect(header(headers, 'x-shop-signature')).toBe('sig');
  });

  it('reads the first value of a header sent twice, and nothing for one not sent', () => {
    expect(header(headers, 'X-Shop-Event')).toBe('first');
    expect(header(headers, 'x-shop-topic')).toBeUndefined();
  });
});
