/**
 * How the adapter proves itself to the store, per call: a bearer token, HTTP basic, an API key
 * header, or an HMAC signature over the request (the time, method, path and body, as the
 * tenant file's `payload` template says). Credentials come resolved from the tenant's
 * `adapter.credentials` references; they only ever go into headers, never into errors or logs.
 */
import { createSecretKey, hash } from 'node:crypto';
import { hmac } from '../kit/hmac.js';
import type { AuthSettings } from './settings.js';

interface OutgoingRequest {
  method: string;
  /** Path and query as sent. */
  target: string;
  body: string;
}

export type Signer = (request: OutgoingRequest, nowMs: number) => Record<string, string>;

const DEFAULT_HMAC_PAYLOAD = '{timestamp}\n{method}\n{path}\n{body_sha256}';

/**
 * A signing template made ready to fill: a literal backslash-n (YAML plain or single-quoted) is a
 * newline too. The template is split once, so a call per request only joins the pieces.
 */
function templateFiller(template: string): (values: Record<string, string>) => string {
  // Odd pieces are placeholder names, even ones the text between them.
  const pieces = template.replace(/\\n/g, '\n').split(/\{(\w+)\}/);
  return (values) => {
    let filled = pieces[0]!;
    for (let i = 1; i < pieces.length; i += 2) filled += (values[pieces[i]!] ?? `{${pieces[i]}}`) + pieces[i + 1];
    return filled;
  };
}

/** Fills a signing template once (see templateFiller). */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return templateFiller(template)(values);
}

/** `credential(name, field)` resolves the credential a settings field names. */
export function signer(auth: AuthSettings | undefined, credential: (name: string, field: string) => string): Signer {
  if (!auth || auth.type === 'none') return () => ({});
  switch (auth.type) {
    case 'bearer': {
      const header = { authorization: `Bearer ${credential(auth.token, 'token')}` };
      return () => header;
    }
    case 'basic': {
      const header = {
        authorization: `Basic ${Buffer.from(`${credential(auth.username, 'username')}:${credential(auth.password, 'password')}`).toString(
          'base64',
        )}`,
      };
      return () => header;
    }
    case 'api_key': {
      const header = { [auth.header.toLowerCase()]: `${auth.prefix ?? ''}${credential(auth.key, 'key')}` };
      return () => header;
    }
    case 'hmac': {
      // A KeyObject made once: given a string, Node 24's createHmac throws and catches an exception per call to learn it is none.
      const secret = createSecretKey(Buffer.from(credential(auth.secret, 'secret'), 'utf8'));
      const fill = templateFiller(auth.payload ?? DEFAULT_HMAC_PAYLOAD);
      const fixed = Object.fromEntries(Object.entries(auth.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
      return (request, nowMs) => {
        const timestamp = auth.timestamp_format === 'iso' ? new Date(nowMs).toISOString() : String(Math.floor(nowMs / 1000));
        const payload = fill({
          timestamp,
          method: request.method.toUpperCase(),
          path: request.target,
          body: request.body,
          // The one-shot digest: a Hash object per call costs as much again.
          body_sha256: hash('sha256', request.body, 'hex'),
        });
        const signature = hmac(auth.algorithm ?? 'sha256', secret, payload).toString(auth.encoding ?? 'hex');
        return {
          ...fixed,
          ...(auth.timestamp_header && { [auth.timestamp_header.toLowerCase()]: timestamp }),
          [auth.signature_header.toLowerCase()]: signature,
        };
      };
    }
  }
}
