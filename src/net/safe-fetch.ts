/**
 * Fetches a small document from a URL supplied by a caller (a platform profile), defending
 * against SSRF and slow or huge answers: the resolved address is checked at connect time
 * (so DNS rebinding cannot slip past), redirects are never followed (undici 7 follows none
 * without its redirect interceptor), the body is capped and
 * the whole exchange has a deadline.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, request, type Dispatcher } from 'undici';
import { refusal } from './address-guard.js';

export interface FetchLimits {
  timeoutMs: number;
  maxBytes: number;
}

export interface FetchedDocument {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export class FetchRefused extends Error {
  override name = 'FetchRefused';
}

function guardedAgent(allowLoopback: boolean): Agent {
  return new Agent({
    connect: {
      lookup(hostname, options, callback) {
        dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
          if (error) return callback(error, '', 4);
          const allowed = addresses.filter((a) => refusal(a.address, allowLoopback) === null);
          const first = allowed[0];
          if (!first) {
            const reason = refusal(addresses[0]?.address ?? '', allowLoopback) ?? 'no address';
            return callback(new FetchRefused(`${hostname} resolves to a refused address: ${reason}`), '', 4);
          }
          if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
          callback(null, first.address, first.family);
        });
      },
    },
  });
}

const agents = { loopback: guardedAgent(true), public: guardedAgent(false) };

/**
 * The guarded dispatcher for a request to `url` (profiles, outgoing webhooks). An IP literal is
 * judged here, since it never goes through the DNS lookup the agents check.
 */
export function guardedDispatcher(url: URL, allowLoopback: boolean): Dispatcher {
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal)) {
    const reason = refusal(literal, allowLoopback);
    if (reason) throw new FetchRefused(reason);
  }
  return allowLoopback ? agents.loopback : agents.public;
}

export async function safeFetch(url: URL, allowLoopback: boolean, limits: FetchLimits): Promise<FetchedDocument> {
  const dispatcher = guardedDispatcher(url, allowLoopback);
  const signal = AbortSignal.timeout(limits.timeoutMs);
  const response = await request(url, {
    method: 'GET',
    dispatcher,
    signal,
    headers: { accept: 'application/json' },
    headersTimeout: limits.timeoutMs,
    bodyTimeout: limits.timeoutMs,
  });
  const declared = Number(response.headers['content-length'] ?? 0);
  if (declared > limits.maxBytes) {
    response.body.destroy();
    throw new FetchRefused(`document is larger than ${limits.maxBytes} bytes`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += (chunk as Buffer).length;
    if (size > limits.maxBytes) {
      response.body.destroy();
      throw new FetchRefused(`document is larger than ${limits.maxBytes} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return { status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks) };
}
