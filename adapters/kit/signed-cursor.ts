/**
 * Signed page cursors: what an adapter must find again on the next page (a page number, an offset,
 * the store's own cursor), as base64url(JSON) "." base64url(HMAC-SHA256), the MAC covering the
 * payload and a binding (the query the cursor belongs to). A cursor that was altered, forged, or
 * replayed with another binding is refused with InvalidPageTokenError (the gateway's 400), never
 * misread as another page. What a cursor holds and what it is bound to stay in the adapter.
 */
import { InvalidPageTokenError } from '../contract.js';
import { hmac, signatureMatches } from './hmac.js';

const FORMAT = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/;

export class SignedCursors<T> {
  private readonly key: Buffer;

  /**
   * `secret`: what the store's cursors are keyed with (a store credential, the same on every
   * replica); `purpose` separates its keys from any other use of that secret. `check` turns a
   * decoded payload into T, or undefined when it is not one.
   */
  constructor(
    secret: string | Buffer,
    purpose: string,
    private readonly check: (payload: unknown) => T | undefined,
  ) {
    this.key = hmac('sha256', secret, `signed-cursor:${purpose}`);
  }

  // JSON text escapes line breaks, so "\n" cannot occur inside the binding: binding and data never blur.
  private sign(binding: unknown, data: string): string {
    return hmac('sha256', this.key, JSON.stringify(binding) ?? 'null', '\n', data).toString('base64url');
  }

  write(binding: unknown, payload: T): string {
    const data = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${data}.${this.sign(binding, data)}`;
  }

  /** The payload of a cursor this instance wrote for this very binding; InvalidPageTokenError otherwise. */
  read(cursor: string, binding: unknown): T {
    const match = FORMAT.exec(cursor);
    // Compared as text: base64url decoding ignores the last character's spare bits, so comparing
    // decoded bytes would accept a second spelling of one cursor.
    if (!match || !signatureMatches(Buffer.from(match[2]!), Buffer.from(this.sign(binding, match[1]!)))) throw new InvalidPageTokenError();
    let payload: T | undefined;
    try {
      payload = this.check(JSON.parse(Buffer.from(match[1]!, 'base64url').toString('utf8')));
    } catch {
      payload = undefined;
    }
    if (payload === undefined) throw new InvalidPageTokenError();
    return payload;
  }
}
