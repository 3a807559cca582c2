/**
 * The raw JSON-RPC body, before the SDK reads it: upstream's 0.3 examples name a part's kind
 * `type`, which the SDK's 0.3 reader refuses, and the SDK's 1.0 reader throws on a part that is
 * not an object, which must be a clear `invalid_request` instead.
 */
type Data = Record<string, unknown>;
const isObject = (value: unknown): value is Data => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The parts of `params.message`, when the body has them as a list. */
function partsOf(body: unknown): unknown[] | undefined {
  const message = isObject(body) && isObject(body.params) ? body.params.message : undefined;
  return isObject(message) && Array.isArray(message.parts) ? message.parts : undefined;
}

/** A part that names its kind `type` (upstream's `"type": "data"`) where 0.3 says `kind`. */
const kindAsType = (part: unknown): part is Data & { type: string } =>
  isObject(part) && part.kind === undefined && typeof part.type === 'string';

/** A 0.3 body with such parts given their `kind`; a copy, the request untouched. */
export function withUpstreamPartKinds(body: Data): Data {
  const parts = partsOf(body);
  if (!parts?.some(kindAsType)) return body;
  const params = body.params as Data;
  const kinded = parts.map((part) => (kindAsType(part) ? { ...part, kind: part.type } : part));
  return { ...body, params: { ...params, message: { ...(params.message as Data), parts: kinded } } };
}

/** Whether a 1.0 body's message lists a part that is not an object. */
export const nonObjectPart = (body: unknown): boolean => partsOf(body)?.some((part) => !isObject(part)) ?? false;
