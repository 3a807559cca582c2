/**
 * Signing (spec part 2 §5.2, §6.1): Content-Digest over the exact body bytes, the required
 * components, `created`, keyid, then Signature-Input and Signature. Synchronous and cheap:
 * one hash, one signature on a prepared KeyObject.
 */
import { signBytes } from './algorithms.js';
import { contentDigest, type Body } from './content-digest.js';
import { requestComponents, responseComponents } from './covered-components.js';
import { hasBody, requestMessage, type HttpResponseMessage } from './http-message.js';
import type { SigningKey } from './keyring.js';
import { component, componentName, signatureBase, type ComponentId } from './signature-base.js';
import { serializeParams, signatureFields, signatureParamsList, type SignatureParams } from './signature-fields.js';
import { signatureAgentField, webBotAuthParams, type WebBotAuthOptions } from './web-bot-auth.js';

export interface SignOptions {
  key: SigningKey;
  now: () => number;
  /** Signature label; default sig1. */
  label?: string;
}

export interface SignRequestOptions extends SignOptions {
  /** Further header fields to cover, e.g. webhook-id and webhook-timestamp. */
  cover?: readonly string[];
  expiresInSeconds?: number;
  webBotAuth?: WebBotAuthOptions;
}

export interface OutgoingRequest {
  method: string;
  url: string | URL;
  headers?: Record<string, string>;
  body?: Body;
}

function sign(message: Parameters<typeof signatureBase>[0], components: ComponentId[], params: SignatureParams, options: SignOptions) {
  const label = options.label ?? 'sig1';
  const list = signatureParamsList(components, params);
  const base = signatureBase(message, components, serializeParams(list), label);
  return signatureFields(label, list, signBytes(options.key.algorithm, options.key.privateKey, base));
}

/** Returns every header to send: the caller's (lower-cased), Content-Digest, Signature-Input, Signature. */
export function signRequest(request: OutgoingRequest, options: SignRequestOptions): Record<string, string> {
  const label = options.label ?? 'sig1';
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value;
  if (hasBody(request.body)) headers['content-digest'] = contentDigest(request.body);
  if (options.webBotAuth) headers['signature-agent'] = signatureAgentField(label, options.webBotAuth);
  const message = requestMessage({ ...request, headers });
  const components = requestComponents(message, label);
  for (const name of options.cover ?? []) {
    if (!components.some((c) => componentName(c) === name.toLowerCase())) components.push(component(name.toLowerCase()));
  }
  const created = Math.floor(options.now() / 1000);
  const params: SignatureParams = {
    created,
    keyid: options.key.kid,
    ...(options.expiresInSeconds !== undefined && { expires: created + options.expiresInSeconds }),
    ...(options.webBotAuth && webBotAuthParams(created, options.webBotAuth)),
  };
  return { ...headers, ...sign(message, components, params, { ...options, label }) };
}

/** The headers that sign a response whose body is exactly `body`: Content-Digest (with a body), Signature-Input, Signature. */
export function signResponse(response: { status: number; contentType?: string; body?: Body }, options: SignOptions): Record<string, string> {
  const digest = hasBody(response.body) ? contentDigest(response.body) : undefined;
  const message: HttpResponseMessage = {
    status: response.status,
    headers: { 'content-type': response.contentType, 'content-digest': digest },
    ...(response.body !== undefined && { body: response.body }),
  };
  const signed = sign(message, responseComponents(message), { created: Math.floor(options.now() / 1000), keyid: options.key.kid }, options);
  return digest === undefined ? signed : { 'content-digest': digest, ...signed };
}
