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

/** Answers that mean the business wants a credential (none sent, or the one sent is not, or no longer, valid). */
const CREDENTIAL_NEEDED = new Set(['authentication_required', 'invalid_credentials', 'identity_required']);

/** A refused call's code and content: `{code, content}`, or the message of a protocol error response (identity_required). */
export function refusal(body: Record<string, unknown>): { code?: unknown; content?: unknown } {
  if ('code' in body) return body;
  return (body.messages as Array<{ code?: unknown; content?: unknown }> | undefined)?.[0] ?? {};
}

/** Asks the host for a fresh credential (ec.auth / ep.cart.auth); undefined when it gave none. */
export type Renew = () => Promise<string | undefined>;

export class Gateway {
  constructor(
    private readonly rpc: string,
    private auth: string | undefined,
    /** Present when the business requires a credential for this session (ep-config `auth`). */
    private readonly renew?: Renew,
  ) {}

  useCredential(credential: string): void {
    this.auth = credential;
  }

  /** The call's answer; refused for its credential, the call is made once more with a fresh one from the host. */
  async call(operation: string, payload: Record<string, unknown> = {}): Promise<Answer> {
    // A fresh key per edit (kept for its retry with a new credential, which the refusal ran nothing of).
    const key = CHANGES.has(operation) ? uuid() : undefined;
    const answer = await this.send(operation, payload, key);
    if (!this.renew || answer.status !== 401 || !CREDENTIAL_NEEDED.has(String(refusal(answer.body).code))) return answer;
    const credential = await this.renew();
    if (credential === undefined) return answer;
    this.auth = credential;
    return this.send(operation, payload, key);
  }

  private async send(operation: string, payload: Record<string, unknown>, key: string | undefined): Promise<Answer> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (key) headers['idempotency-key'] = key;
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
