/**
 * The Signature-Input and Signature fields (RFC 9421 §4): dictionaries keyed by signature
 * label, serialized and parsed with structured-headers. Several labelled signatures may share
 * one message.
 */
import { isInnerList, parseDictionary, serializeDictionary, serializeInnerList, type BareItem, type Dictionary, type InnerList } from 'structured-headers';
import { signatureInvalid, signatureMissing } from './errors.js';
import type { ComponentId } from './signature-base.js';

export interface SignatureParams {
  created?: number;
  expires?: number;
  keyid?: string;
  nonce?: string;
  tag?: string;
  alg?: string;
}

export interface ParsedSignature {
  label: string;
  components: ComponentId[];
  params: SignatureParams;
  /** The inner list re-serialized, exactly as it enters the `@signature-params` line. */
  serializedParams: string;
  signature: Buffer;
}

/** Bounds on what one message may ask the verifier to do. */
const MAX_SIGNATURES = 8;
const MAX_COMPONENTS = 32;

const INTEGER_PARAMS = ['created', 'expires'] as const;
const STRING_PARAMS = ['keyid', 'nonce', 'tag', 'alg'] as const;

/** The inner list of one signature: covered components, then created, expires, keyid, nonce, tag. */
export function signatureParamsList(components: readonly ComponentId[], params: SignatureParams): InnerList {
  const parameters = new Map<string, number | string>();
  for (const name of [...INTEGER_PARAMS, ...STRING_PARAMS]) {
    const value = params[name];
    if (value !== undefined) parameters.set(name, value);
  }
  return [[...components], parameters];
}

export const serializeParams = (list: InnerList): string => serializeInnerList(list);

export const signatureInputField = (label: string, list: InnerList): string => serializeDictionary(new Map([[label, list]]));

export const signatureField = (label: string, signature: Buffer): string => serializeDictionary(new Map([[label, [signature, new Map()]]]));

function parseField(name: string, value: string): Dictionary {
  try {
    return parseDictionary(value);
  } catch {
    throw signatureInvalid('*', `${name} is not a valid RFC 8941 dictionary`);
  }
}

function paramsOf(label: string, list: InnerList): SignatureParams {
  const params: SignatureParams = {};
  for (const name of INTEGER_PARAMS) {
    const value: unknown = list[1].get(name);
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isInteger(value)) throw signatureInvalid(label, `${name} must be an integer`);
    params[name] = value;
  }
  for (const name of STRING_PARAMS) {
    const value: unknown = list[1].get(name);
    if (value === undefined) continue;
    if (typeof value !== 'string') throw signatureInvalid(label, `${name} must be a string`);
    params[name] = value;
  }
  return params;
}

function componentsOf(label: string, list: InnerList): ComponentId[] {
  const items = list[0];
  if (items.length > MAX_COMPONENTS) throw signatureInvalid(label, `covers more than ${MAX_COMPONENTS} components`);
  const seen = new Set<string>();
  for (const item of items) {
    if (typeof item[0] !== 'string') throw signatureInvalid(label, 'component identifiers must be strings');
    const key = serializeInnerList([[item], new Map<string, BareItem>()]);
    if (seen.has(key)) throw signatureInvalid(label, `covers ${key.slice(1, -1)} twice`);
    seen.add(key);
  }
  return items;
}

/**
 * Every labelled signature of a message; throws 401 signature_invalid when the fields are malformed,
 * signature_missing for a label without its Signature member.
 */
export function parseSignatures(signatureInput: string, signature: string): ParsedSignature[] {
  const inputs = parseField('Signature-Input', signatureInput);
  const values = parseField('Signature', signature);
  if (inputs.size === 0) throw signatureInvalid('*', 'Signature-Input names no signature');
  if (inputs.size > MAX_SIGNATURES) throw signatureInvalid('*', `more than ${MAX_SIGNATURES} signatures on one message`);
  return [...inputs].map(([label, list]) => {
    if (!isInnerList(list)) throw signatureInvalid(label, 'Signature-Input member must be an inner list of components');
    const value = values.get(label);
    if (value === undefined) throw signatureMissing(`signature ${label}: Signature has no member for this label`);
    if (isInnerList(value) || !(value[0] instanceof ArrayBuffer)) {
      throw signatureInvalid(label, 'Signature has no byte sequence for this label');
    }
    return {
      label,
      components: componentsOf(label, list),
      params: paramsOf(label, list),
      serializedParams: serializeInnerList(list),
      signature: Buffer.from(value[0]),
    };
  });
}
