/**
 * The page's one way to read and change its session: the page RPC (POST {rpc} with an operation
 * name and the REST payload). Answers are exactly the REST answers: status and JSON body.
 */
import { uuid } from './ids.js';

export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

const CHANGES = new Set(['update_cart', 'cancel_cart', 'update_checkout', 'complete_checkout', 'cancel_checkout']);

export class Gateway {
  constructor(
    private readonly rpc: string,
    private auth: string | undefined,
  ) {}

  useCredential(credential: string): void {
    this.auth = credential;
  }

  async call(operation: string, payload: Record<string, unknown> = {}): Promise<Answer> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    // A fresh key per edit: a retried network failure of the same edit is the caller's decision.
    if (CHANGES.has(operation)) headers['idempotency-key'] = uuid();
    if (this.auth) headers['ep-auth'] = this.auth;
    let response: Response;
    try {
      response = await fetch(this.rpc, {
        method: 'POST',
        headers,
        body: JSON.stringify({ operation, payload }),
        credentials: 'omit',
        cache: 'no-store',
      });
    } catch {
      return { status: 0, body: { code: 'unavailable', content: 'The store could not be reached. Check the connection and try again.' } };
    }
    let body: Record<string, unknown>;
    try {
      body = (await response.json()) as Record<string, unknown>;
    } catch {
      body = { code: 'invalid_response', content: `The store answered ${response.status} without JSON.` };
    }
    return { status: response.status, body };
  }
}
