/**
 * Signing (spec part 2 §5.2, §6.1): Content-Digest over the exact body bytes, the required
 * components, `created`, keyid, then Signature-Input and Signature. Responses are signed on the
 * hot path, so their Signature-Input (which only changes with `created`) is serialized once per
 * second, and a response whose covered components repeat within that second reuses the
 * signature: the signature base is byte-identical, so the signature is valid for both.
 */
import type { InnerList } from 'structured-headers';
import { signBytes } from './algorithms.js';
import { contentDigest, type Body } from './content-digest.js';
import { requestComponents, responseComponents } from './covered-components.js';
import { fieldValue, hasBody, requestMessage, type HttpMessage, type HttpResponseMessage } from './http-message.js';
import type { SigningKey } from './keyring.js';
import { component, componentName, signatureBase } from './signature-base.js';
import { serializeParams, signatureField, signatureInputField, signatureParamsList, type SignatureParams } from './signature-fields.js';
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

/** One signature's parameters, serialized as they enter the base and the Signature-Input field. */
interface Prepared {
  list: InnerList;
  params: string;
  input: string;
}

function prepare(label: string, list: InnerList): Prepared {
  return { list, params: serializeParams(list), input: signatureInputField(label, list) };
}

function sign(message: HttpMessage, prepared: Prepared, label: string, key: SigningKey): Record<string, string> {
  const base = signatureBase(message, prepared.list[0], prepared.params, label);
  return { 'signature-input': prepared.input, signature: signatureField(label, signBytes(key.algorithm, key.privateKey, base)) };
}

const seconds = (now: () => number) => Math.floor(now() / 1000);

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
  const created = seconds(options.now);
  const params: SignatureParams = {
    created,
    keyid: options.key.kid,
    ...(options.expiresInSeconds !== undefined && { expires: created + options.expiresInSeconds }),
    ...(options.webBotAuth && webBotAuthParams(created, options.webBotAuth)),
  };
  return { ...headers, ...sign(message, prepare(label, signatureParamsList(components, params)), label, options.key) };
}

/** Bounds the signatures kept for reuse within one second. */
const MAX_REUSED = 1024;

/** One key's response signatures for the current second. */
class ResponseSigner {
  private created = -1;
  private readonly prepared = new Map<boolean, Prepared>();
  private readonly signatures = new Map<string, Record<string, string>>();

  constructor(
    private readonly key: SigningKey,
    private readonly label: string,
  ) {}

  sign(message: HttpResponseMessage, created: number): Record<string, string> {
    if (created !== this.created) {
      this.created = created;
      this.prepared.clear();
      this.signatures.clear();
    }
    const contentType = fieldValue(message.headers, 'content-type') ?? '';
    const covered = `${message.status}\n${contentType}\n${fieldValue(message.headers, 'content-digest') ?? ''}`;
    let fields = this.signatures.get(covered);
    if (!fields) {
      const withBody = hasBody(message.body);
      let prepared = this.prepared.get(withBody);
      if (!prepared)
        this.prepared.set(
          withBody,
          (prepared = prepare(this.label, signatureParamsList(responseComponents(message), { created, keyid: this.key.kid }))),
        );
      fields = sign(message, prepared, this.label, this.key);
      if (this.signatures.size < MAX_REUSED) this.signatures.set(covered, fields);
    }
    return fields;
  }
}

const responseSigners = new WeakMap<SigningKey, Map<string, ResponseSigner>>();

function responseSigner(key: SigningKey, label: string): ResponseSigner {
  let byLabel = responseSigners.get(key);
  if (!byLabel) responseSigners.set(key, (byLabel = new Map<string, ResponseSigner>()));
  let signer = byLabel.get(label);
  if (!signer) byLabel.set(label, (signer = new ResponseSigner(key, label)));
  return signer;
}

/** The headers that sign a response whose body is exactly `body`: Content-Digest (with a body), Signature-Input, Signature. */
export function signResponse(
  response: { status: number; contentType?: string; body?: Body },
  options: SignOptions,
): Record<string, string> {
  const digest = hasBody(response.body) ? contentDigest(response.body) : undefined;
  const message: HttpResponseMessage = {
    status: response.status,
    headers: { 'content-type': response.contentType, 'content-digest': digest },
    ...(response.body !== undefined && { body: response.body }),
  };
  const signed = responseSigner(options.key, options.label ?? 'sig1').sign(message, seconds(options.now));
  return digest === undefined ? signed : { 'content-digest': digest, ...signed };
}
