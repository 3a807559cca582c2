/**
 * fast-check arbitraries driven by an operation's input schema (the JSON Schema subset TypeBox
 * emits), so every operation in the table is fuzzed without a hand-written generator:
 * - `conforming`: values the schema accepts, with strings often drawn from known words (ids the
 *   store knows) so requests get past "not found" into the handlers;
 * - `mutated`: such a value with a few nodes replaced by hostile values or wrong types, keys
 *   dropped or extra keys added;
 * - `hostile`: huge strings and arrays, deep nesting, unicode edge cases, extreme numbers.
 */
import fc from 'fast-check';

type Schema = Record<string, any>;

const UNICODE_EDGES = [
  '',
  ' ',
  '\u0000',
  '\ud800', // lone surrogate
  '\udfff\ud800',
  '\u202e\u0646\u0635', // right-to-left override
  '\u200b\ufeff', // zero width, byte order mark
  'e\u0301\u0301\u0301', // stacked combining marks
  '👩‍👩‍👧‍👦',
  'İı',
  '\u{10ffff}',
  '﷽',
  '../../etc/passwd',
  '%00%2e%2e%2f',
  '${jndi:ldap://x}',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  '\r\nX-Injected: 1',
];

const EXTREME_NUMBERS = [
  -1,
  0,
  -0,
  0.5,
  -0.5,
  1e-7,
  2 ** 31,
  -(2 ** 31),
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53),
  1e21,
  1e308,
  -1e308,
  Number.MIN_VALUE,
  4.35,
  1e15 + 1,
];

const nested = (depth: number, leaf: unknown): unknown => {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
};

/** Values that break naive code: sizes, depths, encodings, numbers. */
export const hostile: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...UNICODE_EDGES),
  fc.constantFrom(...EXTREME_NUMBERS),
  fc.constantFrom(null, true, false, [], {}),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.integer({ min: 1000, max: 60_000 }).map((n) => 'x'.repeat(n)),
  fc.integer({ min: 100, max: 3000 }).map((n) => Array.from({ length: n }, (_, i) => i)),
  fc.integer({ min: 20, max: 80 }).map((d) => nested(d, 'deep')),
  fc.integer({ min: 100, max: 1500 }).map((n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]))),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  // BigInt(2), not `2n`: the ES2017 target (tsconfig.json) has no BigInt literals.
  fc.bigInt({ min: -(BigInt(2) ** BigInt(80)), max: BigInt(2) ** BigInt(80) }).map((n) => Number(n)),
);

export interface SchemaArbitraryOptions {
  /** Strings tried often for string fields (known ids, codes, countries). */
  words?: readonly string[];
}

function stringFor(schema: Schema, words: readonly string[]): fc.Arbitrary<string> {
  if (typeof schema.pattern === 'string') return fc.stringMatching(new RegExp(schema.pattern));
  switch (schema.format) {
    case 'email':
      return fc.emailAddress();
    case 'uri':
      return fc.webUrl();
    case 'date-time':
      return fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
    case 'date':
      return fc
        .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
  }
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? 40, minLength + 40);
  const known = words.filter((w) => w.length >= minLength && w.length <= (schema.maxLength ?? Infinity));
  return fc.oneof(
    { arbitrary: known.length > 0 ? fc.constantFrom(...known) : fc.string({ minLength, maxLength }), weight: 4 },
    { arbitrary: fc.string({ minLength, maxLength }), weight: 2 },
    { arbitrary: fc.string({ unit: 'grapheme', minLength, maxLength }), weight: 1 },
  );
}

function integerFor(schema: Schema): fc.Arbitrary<number> {
  const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -1e9);
  const max = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : 1e9);
  const small = fc.integer({ min: Math.max(min, -2), max: Math.min(max, 5) });
  return min <= max ? fc.oneof({ arbitrary: small, weight: 3 }, { arbitrary: fc.integer({ min, max }), weight: 1 }) : fc.constant(min);
}

function objectFor(schema: Schema, options: SchemaArbitraryOptions, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties: Record<string, Schema> = schema.properties ?? {};
  const required: string[] = schema.required ?? [];
  const known = fc.record(Object.fromEntries(Object.entries(properties).map(([key, sub]) => [key, conforming(sub, options, depth + 1)])), {
    requiredKeys: required.filter((key) => key in properties),
  });
  const patterns = Object.entries((schema.patternProperties ?? {}) as Record<string, Schema>);
  const extra =
    patterns.length > 0
      ? fc.dictionary(fc.oneof(...patterns.map(([pattern]) => fc.stringMatching(new RegExp(pattern)))), fc.jsonValue({ maxDepth: 2 }), {
          maxKeys: 3,
        })
      : fc.constant({});
  return fc.tuple(known, extra).map(([k, e]) => ({ ...e, ...k }));
}

/** Values `schema` accepts (nearly always: formats and patterns are approximated). */
function conforming(schema: Schema, options: SchemaArbitraryOptions = {}, depth = 0): fc.Arbitrary<unknown> {
  const words = options.words ?? [];
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  const union = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(union)) return fc.oneof(...union.map((s: Schema) => conforming(s, options, depth)));
  if (Array.isArray(schema.allOf)) return conforming(Object.assign({}, ...schema.allOf), options, depth);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object':
      return objectFor(schema, options, depth);
    case 'array': {
      const minLength = schema.minItems ?? 0;
      return fc.array(schema.items ? conforming(schema.items, options, depth + 1) : fc.jsonValue({ maxDepth: 1 }), {
        minLength,
        maxLength: Math.min(schema.maxItems ?? minLength + 4, minLength + 4),
      });
    }
    case 'string':
      return stringFor(schema, words);
    case 'integer':
      return integerFor(schema);
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: schema.minimum ?? -1e9, max: schema.maximum ?? 1e9 });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return depth > 3 ? fc.constant(null) : fc.jsonValue({ maxDepth: 2 });
  }
}

type Mutation = { at: number; kind: 'replace' | 'wrong_type' | 'drop' | 'extra'; value: unknown; key: string };

const mutation: fc.Arbitrary<Mutation> = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom('replace', 'wrong_type', 'drop', 'extra'),
  value: hostile,
  key: fc.oneof(fc.constantFrom('id', 'extra', 'quantity', 'constructor', 'prototype', '$ref'), fc.string({ maxLength: 10 })),
});

/** Every container and the key or index that leads to each node, in preorder. */
function slots(value: unknown, out: Array<{ parent: any; key: string | number }> = []): Array<{ parent: any; key: string | number }> {
  if (value !== null && typeof value === 'object') {
    for (const key of Array.isArray(value) ? value.keys() : Object.keys(value)) {
      out.push({ parent: value, key });
      slots((value as any)[key], out);
    }
  }
  return out;
}

const wrongTypeOf = (value: unknown): unknown =>
  typeof value === 'string'
    ? 42
    : typeof value === 'number'
      ? String(value)
      : Array.isArray(value)
        ? { 0: value[0] }
        : value !== null && typeof value === 'object'
          ? [value]
          : 'wrong';

function apply(root: unknown, m: Mutation): unknown {
  const all = slots(root);
  if (all.length === 0) return m.kind === 'extra' && root !== null && typeof root === 'object' ? { ...root, [m.key]: m.value } : m.value;
  const { parent, key } = all[m.at % all.length]!;
  switch (m.kind) {
    case 'replace':
      parent[key] = m.value;
      break;
    case 'wrong_type':
      parent[key] = wrongTypeOf(parent[key]);
      break;
    case 'drop':
      if (Array.isArray(parent)) parent.splice(Number(key), 1);
      else delete parent[key];
      break;
    case 'extra': {
      const target = parent[key];
      if (target !== null && typeof target === 'object' && !Array.isArray(target))
        Object.defineProperty(target, m.key, { value: m.value, enumerable: true, writable: true, configurable: true });
      else parent[key] = m.value;
    }
  }
  return root;
}

/** A conforming value with one to three mutations. */
export function mutated(schema: Schema, options: SchemaArbitraryOptions = {}): fc.Arbitrary<unknown> {
  return fc
    .tuple(conforming(schema, options), fc.array(mutation, { minLength: 1, maxLength: 3 }))
    .map(([value, mutations]) => mutations.reduce((v, m) => apply(v, m), structuredClone(value)));
}

/** What a hostile agent sends as a payload: mostly near-valid, sometimes anything at all. */
export function payloads(schema: Schema | undefined, options: SchemaArbitraryOptions = {}): fc.Arbitrary<unknown> {
  const anything = fc.oneof(fc.jsonValue({ maxDepth: 4 }), fc.jsonValue({ maxDepth: 3, stringUnit: 'binary' }), hostile);
  if (!schema) return anything;
  return fc.oneof(
    { arbitrary: conforming(schema, options), weight: 3 },
    { arbitrary: mutated(schema, options), weight: 5 },
    { arbitrary: anything, weight: 2 },
  );
}
