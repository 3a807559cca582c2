/**
 * Search page tokens: WooCommerce pages by number, so the token carries the next page number and
 * a fingerprint of the query it belongs to, HMAC-signed (key derived from the store's consumer
 * secret): a token altered, forged or replayed with another query is refused
 * (InvalidPageTokenError), never misread as another page.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { InvalidPageTokenError, type SearchQuery } from '../contract.js';

function fingerprint(query: SearchQuery): string {
  const { pageToken: _token, ...rest } = query;
  return createHash('sha256').update(JSON.stringify(rest)).digest('base64url').slice(0, 16);
}

export class PageTokens {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = createHmac('sha256', secret).update('woocommerce-page-token').digest();
  }

  private sign(data: string): string {
    return createHmac('sha256', this.key).update(data).digest('base64url').slice(0, 22);
  }

  write(query: SearchQuery, page: number): string {
    const data = Buffer.from(JSON.stringify({ p: page, q: fingerprint(query) })).toString('base64url');
    return `${data}.${this.sign(data)}`;
  }

  /** The page a token points to, for this very query. */
  read(query: SearchQuery): number {
    if (!query.pageToken) return 1;
    const [data, signature] = query.pageToken.split('.');
    const expected = data ? this.sign(data) : '';
    if (!data || !signature || signature.length !== expected.length || !timingSafeEqual(Buffer.from(signature), Buffer.from(expected))) {
      throw new InvalidPageTokenError();
    }
    const payload = JSON.parse(Buffer.from(data, 'base64url').toString('utf8')) as { p?: unknown; q?: unknown };
    if (payload.q !== fingerprint(query) || !Number.isSafeInteger(payload.p) || (payload.p as number) < 2)
      throw new InvalidPageTokenError();
    return payload.p as number;
  }
}
