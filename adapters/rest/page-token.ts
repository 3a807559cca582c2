/**
 * The adapter's search page token: the store's own position (a cursor, a page number or an item
 * offset) plus a fingerprint of the query it belongs to, so a token is refused
 * (InvalidPageTokenError, 400) with any other query. The gateway wraps it in its own signed cursor.
 */
import { createHash } from 'node:crypto';
import { InvalidPageTokenError, type SearchQuery } from '../contract.js';

export type PageStyle = 'cursor' | 'page' | 'offset';

/** What the search request mapping sees of the position: one of these, for the first page too. */
export interface PagePosition {
  page?: number;
  offset?: number;
  cursor?: string;
}

/** What the search response mapping says about the next page. */
export interface NextPage {
  /** page / offset styles: there are more items. */
  more?: boolean;
  /** cursor style: the store's cursor of the next page; absent or null on the last. */
  cursor?: string | null;
}

function fingerprint(query: SearchQuery, limit: number): string {
  const { text, categories, price, custom } = query;
  return createHash('sha256')
    .update(JSON.stringify([text, categories, price, custom, limit]))
    .digest('base64url')
    .slice(0, 16);
}

export class PageTokens {
  constructor(
    private readonly style: PageStyle,
    private readonly firstPage: number,
  ) {}

  /** The position a query asks for: its token's, or the first page. */
  position(query: SearchQuery, limit: number): PagePosition {
    if (!query.pageToken) return this.first();
    let token: { f?: unknown; p?: unknown; o?: unknown; c?: unknown };
    try {
      token = JSON.parse(Buffer.from(query.pageToken, 'base64url').toString('utf8')) as typeof token;
    } catch {
      throw new InvalidPageTokenError();
    }
    if (token?.f !== fingerprint(query, limit)) throw new InvalidPageTokenError();
    if (this.style === 'page' && Number.isSafeInteger(token.p)) return { page: token.p as number };
    if (this.style === 'offset' && Number.isSafeInteger(token.o)) return { offset: token.o as number };
    if (this.style === 'cursor' && typeof token.c === 'string') return { cursor: token.c };
    throw new InvalidPageTokenError();
  }

  /** The position after `at`, or undefined on the last page. */
  after(at: PagePosition, limit: number, answer: NextPage): PagePosition | undefined {
    if (this.style === 'cursor') return typeof answer.cursor === 'string' && answer.cursor !== '' ? { cursor: answer.cursor } : undefined;
    if (answer.more !== true) return undefined;
    return this.style === 'page' ? { page: (at.page ?? this.firstPage) + 1 } : { offset: (at.offset ?? 0) + limit };
  }

  /** The token of the page after `at`, or undefined on the last page. */
  next(query: SearchQuery, limit: number, at: PagePosition, answer: NextPage): string | undefined {
    const next = this.after(at, limit, answer);
    if (!next) return undefined;
    const token = {
      f: fingerprint(query, limit),
      ...(next.page !== undefined && { p: next.page }),
      ...(next.offset !== undefined && { o: next.offset }),
      ...(next.cursor !== undefined && { c: next.cursor }),
    };
    return Buffer.from(JSON.stringify(token)).toString('base64url');
  }

  /** The first page's position. */
  first(): PagePosition {
    return this.style === 'page' ? { page: this.firstPage } : this.style === 'offset' ? { offset: 0 } : {};
  }
}
