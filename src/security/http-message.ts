/**
 * The parts of an HTTP message that signatures cover, independent of Fastify, undici or fetch:
 * the gateway verifies incoming requests and signs its responses with these, and webhook code
 * signs outgoing requests with them.
 */
import type { Body } from './content-digest.js';

/** Header fields by lower-cased name, as node:http presents them. */
export type HeaderFields = Readonly<Record<string, string | readonly string[] | undefined>>;

export interface HttpRequestMessage {
  method: string;
  /** host[:port] as the client addressed it, lower-cased, default port removed. */
  authority: string;
  /** Absolute path as sent, without the query. */
  path: string;
  /** Query string without the leading "?"; undefined when the target had none. */
  query?: string;
  headers: HeaderFields;
  body?: Body;
}

export interface HttpResponseMessage {
  status: number;
  headers: HeaderFields;
  body?: Body;
}

export type HttpMessage = HttpRequestMessage | HttpResponseMessage;

export const isRequest = (message: HttpMessage): message is HttpRequestMessage => 'method' in message;

/** A field's value with every field line trimmed and joined by ", " (RFC 9421 §2.1). */
export function fieldValue(headers: HeaderFields, name: string): string | undefined {
  const value = headers[name];
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value.trim() : value.map((line) => line.trim()).join(', ');
}

export const hasBody = (body: Body): boolean => body !== undefined && body.length > 0;

/** Describes a request to an absolute URL (outgoing webhooks, tests, other verifiers). */
export function requestMessage(init: {
  method: string;
  url: string | URL;
  headers?: Record<string, string>;
  body?: Body;
}): HttpRequestMessage {
  const url = new URL(init.url);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(init.headers ?? {})) headers[name.toLowerCase()] = value;
  return {
    method: init.method.toUpperCase(),
    authority: url.host.toLowerCase(),
    path: url.pathname,
    ...(url.search !== '' && { query: url.search.slice(1) }),
    headers,
    ...(init.body !== undefined && { body: init.body }),
  };
}
