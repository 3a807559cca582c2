/**
 * A GraphQL call to Shopify over the kit's HTTP client, sent and read as @shopify/graphql-client
 * would send and read it (the same URL, headers and body; the same answers taken as errors), without
 * its per-call machinery: the library answers through a web `Response`, reads a `@defer` answer
 * through a web stream, a TextDecoder and async generators, and re-validates the API version on
 * every call. That path was a quarter of the adapter's CPU per operation, store calls included
 * (2026-11-28, issue #32: 130-440 µs of 490-1,420 µs).
 * The library still builds each endpoint (URL, token headers).
 */
import { BackendError, InvalidBackendAnswer } from '../contract.js';
import type { HttpAnswer, HttpClient } from '../kit/http-client.js';

export type ShopifyApi = 'Storefront' | 'Admin';

/** Where a client of the library sends its calls, and with which headers. */
export interface Endpoint {
  url: URL;
  headers: Record<string, string>;
}

/** What the library sends without being asked, when its client's headers do not say it. */
const SDK_HEADERS = { 'X-SDK-Variant': 'shopify-graphql-client', 'X-SDK-Version': '2.0.0' };

/** A library client's endpoint, sent to `origin` (a tenant's `api_origin`) instead of the shop when given. */
export function endpointOf(config: { apiUrl: string; headers: Record<string, string | string[]> }, origin?: string): Endpoint {
  const url = new URL(config.apiUrl);
  const headers = Object.fromEntries(Object.entries(config.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v]));
  const sdk = headers['X-SDK-Variant'] || headers['X-SDK-Version'] ? {} : SDK_HEADERS;
  return { url: origin ? new URL(`${origin}${url.pathname}`) : url, headers: { ...headers, ...sdk } };
}

/** The call's answer read whole; undefined when none came (unreachable, cut off, past the deadline). */
export async function post(
  http: HttpClient,
  endpoint: Endpoint,
  document: string,
  variables: Record<string, unknown>,
  signal: AbortSignal | undefined,
  headers?: Record<string, string>,
): Promise<HttpAnswer | undefined> {
  const answer = await http
    .send('Shopify', {
      method: 'POST',
      url: endpoint.url,
      headers: headers ? { ...endpoint.headers, ...headers } : endpoint.headers,
      body: JSON.stringify({ query: document, variables }),
      signal,
    })
    .catch(() => undefined);
  return answer?.text === undefined ? undefined : answer;
}

interface GraphQLError {
  message?: string;
  extensions?: { code?: string };
}
interface Extensions {
  cost?: { requestedQueryCost?: number; throttleStatus?: { currentlyAvailable?: number; restoreRate?: number } };
}

/** How long until the Admin bucket holds this call's cost again. */
function throttleWait(extensions: Extensions | undefined): number {
  const cost = extensions?.cost;
  const status = cost?.throttleStatus;
  if (!cost?.requestedQueryCost || !status?.restoreRate) return 1_000;
  const missing = cost.requestedQueryCost - (status.currentlyAvailable ?? 0);
  return Math.max(100, Math.ceil((missing / status.restoreRate) * 1_000));
}

/** GraphQL errors in an answer: cost throttling (retry once the bucket refills), else a refusal. */
function refusal(api: ShopifyApi, errors: GraphQLError[], extensions?: Extensions): BackendError {
  if (errors.some((e) => e.extensions?.code === 'THROTTLED'))
    return new BackendError(`Shopify ${api} API throttled the call (query cost)`, true, throttleWait(extensions));
  return new BackendError(`Shopify ${api} API refused the call: ${errors.map((e) => e.message).join('; ')}`, false);
}

const ok = (status: number) => status >= 200 && status < 300;

/** An HTTP status that is no GraphQL answer: what it means for the gateway. */
export function statusError(api: ShopifyApi, status: number, retryAfter?: string): BackendError {
  if (status === 429)
    return new BackendError(`Shopify ${api} API is throttling (429)`, true, retryAfter ? parseFloat(retryAfter) * 1_000 : 1_000);
  if (status === 430) return new BackendError(`Shopify ${api} API rejected the call for now (430)`, true, 1_000);
  if (status >= 500) return new BackendError(`Shopify ${api} API failed (${status})`, true);
  if (status === 401 || status === 403) return new BackendError(`Shopify ${api} API refused the credentials (${status})`, false);
  if (ok(status)) return new InvalidBackendAnswer(`Shopify ${api} API`, 'body (not GraphQL JSON)');
  return new BackendError(`Shopify ${api} API answered ${status}`, false);
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A JSON answer's `data`; GraphQL errors, a non-2xx status or a body that is not GraphQL JSON throw. */
export function jsonData<T>(api: ShopifyApi, answer: HttpAnswer | undefined): T {
  if (!answer) throw new BackendError(`Shopify ${api} API is unreachable`, true);
  if (!ok(answer.status)) throw statusError(api, answer.status, answer.headers['retry-after']);
  const body = (answer.headers['content-type'] ?? '').includes('application/json')
    ? (parse(answer.text!) as { data?: unknown; errors?: unknown; extensions?: Extensions } | null | undefined)
    : undefined;
  const { data, errors, extensions } = body ?? {};
  if (Array.isArray(errors)) throw refusal(api, errors as GraphQLError[], extensions);
  if (errors || !data) throw statusError(api, answer.status);
  return data as T;
}

type Json = Record<string, unknown>;

/** `patch` merged into `base` key by key, objects and arrays (by index) deeply, as the library merges payloads. */
function merge(base: unknown, patch: unknown): Json {
  const merged = (Array.isArray(base) ? [...(base as unknown[])] : { ...(base as Json) }) as Json;
  for (const [key, value] of Object.entries(patch ?? {}))
    merged[key] = typeof value === 'object' && merged[key] ? merge(merged[key], value) : (value as unknown);
  return merged;
}

interface Payload {
  data?: unknown;
  errors?: unknown;
  hasNext?: boolean;
  incremental?: Array<{ data?: unknown; path?: Array<string | number>; errors?: GraphQLError[] }>;
}

/** The JSON payloads of a multipart/mixed body: each part between boundaries, after its headers. */
function parts(text: string, contentType: string): Payload[] {
  const boundary = `--${/boundary="?([^=";]+)"?/i.exec(contentType)?.[1] ?? '-'}`;
  const last = text.lastIndexOf(boundary);
  if (last < 0) return [];
  return text
    .slice(0, last)
    .split(boundary)
    .filter((part) => part.trim().length > 0)
    .map((part) => JSON.parse(part.slice(part.indexOf('\r\n\r\n') + 4).trim()) as Payload);
}

const dataAt = (path: Array<string | number>, data: unknown): unknown => path.reduceRight((inner, key) => ({ [key]: inner }), data);

/**
 * A `@defer` answer's data: the initial payload with every incremental one merged in at its path
 * (multipart/mixed), or a plain JSON answer. As the library answers: GraphQL errors refuse the call;
 * no answer, a non-2xx status, an unreadable or unfinished body (`hasNext` still true) or no data
 * at all is a failure, retryable when the status says so.
 */
export function deferredData<T>(api: ShopifyApi, answer: HttpAnswer | undefined): T {
  if (!answer) throw new BackendError(`Shopify ${api} API failed`, true);
  const { status, text } = answer;
  const failed = () => new BackendError(`Shopify ${api} API failed (${status})`, status >= 500 || status === 429);
  const type = answer.headers['content-type'] ?? '';
  let payloads: Payload[];
  try {
    if (!ok(status)) throw failed();
    if (type.includes('application/json')) {
      const { data, errors } = JSON.parse(text!) as Payload;
      if (Array.isArray(errors) && errors.length) throw refusal(api, errors as GraphQLError[]);
      if (errors || !data) throw failed();
      payloads = [{ data }];
    } else if (type.includes('multipart/mixed')) payloads = parts(text!, type);
    else throw failed();
  } catch (error) {
    throw error instanceof BackendError ? error : failed();
  }
  let data: Json = {};
  let hasNext = true;
  let errors: GraphQLError[] = [];
  for (const payload of payloads) {
    if (payload.incremental) {
      for (const part of payload.incremental) {
        errors = errors.concat(part.errors ?? []);
        data = merge(data, part.data && part.path ? dataAt(part.path, part.data) : {});
      }
    } else {
      errors = errors.concat((payload.errors as GraphQLError[] | undefined) ?? []);
      data = merge(data, payload.data || {});
    }
    hasNext = !!payload.hasNext;
  }
  if (errors.length) throw refusal(api, errors);
  if (hasNext || Object.keys(data).length === 0) throw failed();
  return data as T;
}
