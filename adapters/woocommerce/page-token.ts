/**
 * Search page tokens: WooCommerce pages by number, so the token carries the next page number,
 * signed (adapters/kit/signed-cursor.ts, keyed with the store's consumer secret) and bound to the
 * query without its token: a token altered, forged or replayed with another query is refused
 * (InvalidPageTokenError), never misread as another page.
 */
import type { SearchQuery } from '../contract.js';
import { SignedCursors } from '../kit/signed-cursor.js';

const binding = ({ pageToken: _token, ...rest }: SearchQuery) => rest;

export class PageTokens {
  private readonly cursors: SignedCursors<number>;

  constructor(secret: string) {
    this.cursors = new SignedCursors(secret, 'woocommerce-page-token', (page) =>
      Number.isSafeInteger(page) && (page as number) >= 2 ? (page as number) : undefined,
    );
  }

  write(query: SearchQuery, page: number): string {
    return this.cursors.write(binding(query), page);
  }

  /** The page a token points to, for this very query. */
  read(query: SearchQuery): number {
    return query.pageToken ? this.cursors.read(query.pageToken, binding(query)) : 1;
  }
}
