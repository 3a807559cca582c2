/**
 * Ajv writes out a subschema's code at every place it appears, so a schema that repeats a large
 * part compiles to that part's code many times over: the REST adapter's settings name one
 * operation shape (with its steps, auth variants and expressions) eleven times, 113 KB of schema
 * that compiled to 1.7 MB of code in about a second. Here each part of at least 1 KB that appears
 * twice or more moves to `$defs` and is referenced, so Ajv compiles it once (the code is 13 times
 * smaller). What is accepted and the errors' paths and messages stay the same.
 */

type SchemaNode = Record<string, unknown>;

const MIN_SHARED_CHARS = 1024;

/** Keywords whose value is a map of subschemas, one subschema, or a list of subschemas (JSON Schema 2020-12). */
const SCHEMA_MAPS = ['properties', 'patternProperties', 'dependentSchemas'];
const SCHEMA_ONE = ['items', 'additionalItems', 'additionalProperties', 'contains', 'propertyNames', 'not', 'if', 'then', 'else'];
const SCHEMA_LISTS = ['anyOf', 'allOf', 'oneOf', 'prefixItems', 'items'];

const isNode = (value: unknown): value is SchemaNode => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A copy of `node` with each direct subschema replaced by `map(subschema)`; other keywords (enum, const, examples) are data and kept. */
function mapSubschemas(node: SchemaNode, map: (child: SchemaNode) => SchemaNode): SchemaNode {
  const copy: SchemaNode = { ...node };
  const each = (child: unknown) => (isNode(child) ? map(child) : child);
  for (const key of SCHEMA_MAPS)
    if (isNode(node[key])) copy[key] = Object.fromEntries(Object.entries(node[key]).map(([name, child]) => [name, each(child)]));
  for (const key of SCHEMA_ONE) if (isNode(node[key])) copy[key] = map(node[key]);
  for (const key of SCHEMA_LISTS) if (Array.isArray(node[key])) copy[key] = node[key].map(each);
  return copy;
}

/**
 * `schema` with its repeated large parts in `$defs`; the schema itself when nothing repeats, or
 * when it already uses references (or unevaluated* keywords, which look through them).
 */
export function withSharedParts(schema: SchemaNode): SchemaNode {
  const text = JSON.stringify(schema);
  if (text.length < 2 * MIN_SHARED_CHARS || /"\$(ref|defs|id|anchor|dynamicRef|dynamicAnchor)"|"unevaluated/.test(text)) return schema;
  const seen = new Map<string, number>();
  const count = (node: SchemaNode): SchemaNode => {
    const part = JSON.stringify(node);
    if (part.length >= MIN_SHARED_CHARS) seen.set(part, (seen.get(part) ?? 0) + 1);
    return mapSubschemas(node, count);
  };
  count(schema);
  const defs: Record<string, SchemaNode> = {};
  const names = new Map<string, string>();
  const share = (node: SchemaNode): SchemaNode => {
    const part = JSON.stringify(node);
    if ((seen.get(part) ?? 0) < 2) return mapSubschemas(node, share);
    let name = names.get(part);
    if (!name) {
      names.set(part, (name = `shared${names.size}`));
      defs[name] = mapSubschemas(node, share);
    }
    return { $ref: `#/$defs/${name}` };
  };
  const root = mapSubschemas(schema, share);
  return names.size === 0 ? schema : { ...root, $defs: defs };
}
