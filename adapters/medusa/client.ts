/**
 * Calls to one Medusa server through the official @medusajs/js-sdk client: one client with the
 * publishable key for the Store API and one with the secret key for the Admin API (each sends
 * only its own key), over the kit's kept-alive connections (adapters/kit/http-client.ts: the SDK
 * hands its fetch options to the global fetch, so the kit's dispatcher rides along), a deadline
 * per call (the gateway's signal, else `timeoutMs`), and Medusa's
 * failures turned into the contract's errors: 429 and 5xx retryable, an unreadable or
 * unexpected body final (InvalidBackendAnswer), 4xx handed back as `MedusaRefusal` for the
 * caller to read as data (an unknown id, a refused code, a cart that cannot complete).
 * No key ever appears in an error: FetchError carries only Medusa's own message.
 */
import { Client, FetchError } from '@medusajs/js-sdk';
import { BackendError, InvalidBackendAnswer } from '../contract.js';
import { HttpClient } from '../kit/http-client.js';

/** Medusa's words when the publishable key is missing, unknown or revoked. */
const PUBLISHABLE_KEY_REFUSED = /publishable (api )?key/i;

/** A 4xx answer: Medusa refused the request and said why. */
export class MedusaRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'MedusaRefusal';
  }
}

export interface CallOptions {
  method?: 'GET' | 'POST' | 'DELETE';
  query?: Record<string, unknown>;
  body?: unknown;
  signal?: AbortSignal | undefined;
  /** Extra headers (a customer's bearer token); never logged. */
  headers?: Record<string, string>;
}

export type Api = 'store' | 'admin' | 'auth';

export class MedusaClient {
  private readonly store: Client;
  private readonly admin: Client;
  private readonly http: HttpClient;

  constructor(
    readonly baseUrl: string,
    keys: { publishable: string; secret: string },
    private readonly timeoutMs: number,
  ) {
    // `nostore`: the SDK keeps no customer token between calls; a login's token is passed per call.
    const auth = { type: 'jwt' as const, jwtTokenStorageMethod: 'nostore' as const };
    this.store = new Client({ baseUrl, publishableKey: keys.publishable, auth });
    this.admin = new Client({ baseUrl, apiKey: keys.secret, auth });
    this.http = new HttpClient({ timeoutMs });
  }

  /** Closes the kept-alive connections. */
  close(): Promise<void> {
    return this.http.close();
  }

  /** One call; `what` names it in errors ("store cart update"). Resolves the parsed JSON object. */
  async call<T = Record<string, unknown>>(api: Api, path: string, what: string, options: CallOptions = {}): Promise<T> {
    const client = api === 'admin' ? this.admin : this.store;
    const signal = options.signal ?? AbortSignal.timeout(this.timeoutMs);
    let answer: unknown;
    try {
      answer = await client.fetch<unknown>(path, {
        method: options.method ?? 'GET',
        ...(options.query && { query: options.query }),
        ...(options.body !== undefined && { body: options.body as never }),
        ...(options.headers && { headers: options.headers }),
        signal,
        dispatcher: this.http.agent,
      });
    } catch (error) {
      throw this.failure(api, what, error, signal);
    }
    if (answer === null || typeof answer !== 'object' || Array.isArray(answer))
      throw new InvalidBackendAnswer(what, 'body (not a JSON object)');
    return answer as T;
  }

  private failure(api: Api, what: string, error: unknown, signal: AbortSignal): Error {
    if (error instanceof FetchError) {
      const status = error.status ?? 0;
      if (status === 429) return new BackendError(`Medusa throttled ${what} (429)`, true, 1000);
      // A revoked or wrong key: Medusa answers 401 for the Admin API, and 400 NOT_ALLOWED for a
      // publishable key (framework ensure-publishable-api-key), which must not read as an unknown id.
      const keyRefused =
        api === 'admin'
          ? status === 401 || status === 403
          : api === 'store' && status === 400 && PUBLISHABLE_KEY_REFUSED.test(error.message);
      if (keyRefused)
        return new BackendError(
          `Medusa refused the gateway's ${api === 'admin' ? 'secret' : 'publishable'} API key (${what}, ${status})`,
          false,
        );
      if (status >= 500 || status === 0) return new BackendError(`Medusa failed ${what} (${status}): ${error.message}`, true);
      return new MedusaRefusal(status, error.message);
    }
    if (error instanceof SyntaxError) return new InvalidBackendAnswer(what, 'body (not JSON)');
    if (signal.aborted) return new BackendError(`Medusa did not answer ${what} in time`, true);
    return new BackendError(`Medusa is unreachable for ${what}: ${(error as Error).message ?? String(error)}`, true);
  }
}

/** The answer's member `key` as a list, or an InvalidBackendAnswer naming what was missing. */
export function list<T>(answer: Record<string, unknown>, key: string, what: string): T[] {
  const value = answer[key];
  if (!Array.isArray(value)) throw new InvalidBackendAnswer(what, `answer (no ${key} list)`);
  return value as T[];
}

/** The answer's member `key` as an object, or an InvalidBackendAnswer naming what was missing. */
export function member<T>(answer: Record<string, unknown>, key: string, what: string): T {
  const value = answer[key];
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new InvalidBackendAnswer(what, `answer (no ${key})`);
  return value as T;
}

/** Is this a 404 (or 400 for a malformed id) refusal: the thing does not exist. */
export const isUnknown = (error: unknown): boolean => error instanceof MedusaRefusal && (error.status === 404 || error.status === 400);
