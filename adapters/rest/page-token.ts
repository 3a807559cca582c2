/**
 * The adapter's search page token: the store's own position (a cursor, a page number or an item
 * offset), signed (adapters/kit/signed-cursor.ts) and bound to the query it belongs to, so a token
 * is refused (InvalidPageTokenError, 400) with any other query, and the store never sees a
 * position the adapter did not get from it. The gateway wraps it in its own signed cursor.
 */
import type { SearchQuery } from '../contract.js';
import { SignedCursors } from '../kit/signed-cursor.js';

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

/** What a token must not be replayed across: the query's filters and the page size. */
const binding = ({ text, categories, price, custom }: SearchQuery, limit: number) => [text, categories, price, custom, limit];

export class PageTokens {
  private readonly tokens: SignedCursors<PagePosition>;

  /** `secret`: the tenant's store credentials (the same on every replica), which key the tokens. */
  constructor(
    private readonly style: PageStyle,
    private readonly firstPage: number,
    secret: string,
  ) {
    this.tokens = new SignedCursors(secret, 'rest-page-token', (token) => this.check(token));
  }

  private check(token: unknown): PagePosition | undefined {
    const { page, offset, cursor } = (token ?? {}) as Record<keyof PagePosition, unknown>;
    if (this.style === 'page' && Number.isSafeInteger(page)) return { page: page as number };
    if (this.style === 'offset' && Number.isSafeInteger(offset)) return { offset: offset as number };
    if (this.style === 'cursor' && typeof cursor === 'string') return { cursor };
    return undefined;
  }

  /** The position a query asks for: its token's, or the first page. */
  position(query: SearchQuery, limit: number): PagePosition {
    return query.pageToken ? this.tokens.read(query.pageToken, binding(query, limit)) : this.first();
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
    return this.tokens.write(binding(query, limit), next);
  }

  /** The first page's position. */
  first(): PagePosition {
    return this.style === 'page' ? { page: this.firstPage } : this.style === 'offset' ? { offset: 0 } : {};
  }
}
