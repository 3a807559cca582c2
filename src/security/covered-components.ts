/**
 * Which components a signature must cover (spec part 2 §5.2). The signer covers exactly these,
 * and the verifier rejects a signature that leaves any of them out, so a signature over
 * `@authority` alone never passes.
 */
import { fieldValue, hasBody, type HttpRequestMessage, type HttpResponseMessage } from './http-message.js';
import { component, componentName, type ComponentId } from './signature-base.js';

const STATE_CHANGING = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);

/** `label` ties a Signature-Agent member to the signature (`signature-agent;key="<label>"`). */
export function requestComponents(message: HttpRequestMessage, label: string): ComponentId[] {
  const present = (name: string) => fieldValue(message.headers, name) !== undefined;
  const list = [component('@method'), component('@authority'), component('@path')];
  if (message.query !== undefined) list.push(component('@query'));
  if (present('proto-agent')) list.push(component('proto-agent'));
  if (present('signature-agent')) list.push(component('signature-agent', { key: label }));
  // Only a header that is there can be covered: an MCP POST carries its key in `meta` instead.
  if (STATE_CHANGING.has(message.method) && present('idempotency-key')) list.push(component('idempotency-key'));
  if (hasBody(message.body)) list.push(component('content-type'), component('content-digest'));
  return list;
}

export function responseComponents(message: HttpResponseMessage): ComponentId[] {
  const list = [component('@status')];
  if (hasBody(message.body)) list.push(component('content-type'), component('content-digest'));
  return list;
}

/** Names of required components the signature does not cover (parameters such as `key` aside). */
export function uncovered(required: readonly ComponentId[], covered: readonly ComponentId[]): string[] {
  const names = new Set(covered.map(componentName));
  return required.map(componentName).filter((name) => !names.has(name));
}
