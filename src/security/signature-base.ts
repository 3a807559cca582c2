/**
 * The RFC 9421 signature base (§2.5): one line per covered component, then the
 * `@signature-params` line. Component identifiers and dictionary members are serialized with
 * structured-headers, so the bytes match any other conforming implementation.
 */
import { isInnerList, parseDictionary, serializeInnerList, serializeItem, type InnerList, type Item } from 'structured-headers';
import { signatureInvalid } from './errors.js';
import { fieldValue, isRequest, type HttpMessage } from './http-message.js';

/** A covered component: its name ("@method", "content-type") and parameters (`key`). */
export type ComponentId = Item;

export const component = (name: string, params: Record<string, string> = {}): ComponentId => [name, new Map(Object.entries(params))];

export const componentName = (id: ComponentId): string => id[0] as string;

function derivedValue(message: HttpMessage, name: string, label: string): string {
  if (name === '@status') {
    if (isRequest(message)) throw signatureInvalid(label, '@status only exists on responses');
    return String(message.status);
  }
  if (!isRequest(message)) throw signatureInvalid(label, `${name} only exists on requests`);
  switch (name) {
    case '@method':
      return message.method;
    case '@authority':
      return message.authority;
    case '@path':
      return message.path === '' ? '/' : message.path;
    case '@query':
      return `?${message.query ?? ''}`;
    default:
      throw signatureInvalid(label, `derived component ${name} is not supported`);
  }
}

/** `;key="member"`: the serialized value of one member of a dictionary field (RFC 9421 §2.1.2). */
function dictionaryMember(field: string, name: string, key: string, label: string): string {
  let member: Item | InnerList | undefined;
  try {
    member = parseDictionary(field).get(key);
  } catch {
    throw signatureInvalid(label, `${name} is not an RFC 8941 dictionary, so ;key cannot select a member`);
  }
  if (member === undefined) throw signatureInvalid(label, `${name} has no member ${JSON.stringify(key)}`);
  return isInnerList(member) ? serializeInnerList(member) : serializeItem(member);
}

function componentValue(message: HttpMessage, id: ComponentId, label: string): string {
  const name = componentName(id);
  const params = id[1];
  if (name.startsWith('@')) {
    if (params.size > 0) throw signatureInvalid(label, `parameters on ${name} are not supported`);
    return derivedValue(message, name, label);
  }
  if (name !== name.toLowerCase()) throw signatureInvalid(label, `component name ${JSON.stringify(name)} must be lower-case`);
  const unsupported = [...params.keys()].find((p) => p !== 'key');
  if (unsupported !== undefined) throw signatureInvalid(label, `component parameter ;${unsupported} is not supported`);
  const value = fieldValue(message.headers, name);
  if (value === undefined) throw signatureInvalid(label, `covered header ${name} is not in the message`);
  const key: unknown = params.get('key');
  if (key === undefined) return value;
  if (typeof key !== 'string') throw signatureInvalid(label, `;key on ${name} must be a string`);
  return dictionaryMember(value, name, key, label);
}

/** The bytes that are signed. `params` is the serialized inner list of Signature-Input. */
export function signatureBase(message: HttpMessage, components: readonly ComponentId[], params: string, label: string): Buffer {
  let base = '';
  for (const id of components) base += `${serializeItem(id)}: ${componentValue(message, id, label)}\n`;
  return Buffer.from(`${base}"@signature-params": ${params}`, 'utf8');
}
