/** Hand-made signatures for the cases a well-behaved signer never produces. */
import { signBytes } from '../../../src/security/algorithms.js';
import { requestMessage } from '../../../src/security/http-message.js';
import type { SigningKey } from '../../../src/security/keyring.js';
import { component, signatureBase } from '../../../src/security/signature-base.js';
import {
  serializeParams,
  signatureField,
  signatureInputField,
  signatureParamsList,
  type SignatureParams,
} from '../../../src/security/signature-fields.js';
import { HOST, type Outgoing } from './secure-gateway.js';

/** Replaces the request's signature with one over exactly `components`. */
export function signCovering(out: Outgoing, components: string[], key: SigningKey, params: SignatureParams, label = 'sig1'): Outgoing {
  const message = requestMessage({
    method: out.method,
    url: `https://${HOST}${out.url}`,
    headers: out.headers,
    ...(out.payload !== undefined && { body: out.payload }),
  });
  const ids = components.map((name) => component(name));
  const list = signatureParamsList(ids, { keyid: key.kid, ...params });
  const base = signatureBase(message, ids, serializeParams(list), label);
  const signature = signBytes(key.algorithm, key.privateKey, base);
  return {
    ...out,
    headers: { ...out.headers, 'signature-input': signatureInputField(label, list), signature: signatureField(label, signature) },
  };
}

/** One request carrying the signatures of both (same message, different labels). */
export function bothSignatures(first: Outgoing, second: Outgoing): Outgoing {
  const h = (o: Outgoing, name: string) => o.headers[name]!;
  return {
    ...first,
    headers: {
      ...first.headers,
      'signature-input': `${h(first, 'signature-input')}, ${h(second, 'signature-input')}`,
      signature: `${h(first, 'signature')}, ${h(second, 'signature')}`,
    },
  };
}

/** The same headers with one value changed. */
export const withHeader = (out: Outgoing, name: string, value: string): Outgoing => ({
  ...out,
  headers: { ...out.headers, [name]: value },
});
