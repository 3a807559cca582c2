/**
 * One Ajv instance (JSON Schema 2020-12 with formats) for every schema the gateway checks:
 * request payloads, platform profiles, tenant configuration. Validators are compiled once per
 * distinct schema, at start-up, never per request.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import type { TSchema } from '@sinclair/typebox';
import { withSharedParts } from './shared-parts.js';

// ajv-formats is CommonJS with `exports.default`; NodeNext sees the module object.
const addFormats = formatsModule.default;

const ajv = new Ajv2020({ strict: false, allErrors: false, verbose: true, coerceTypes: false, useDefaults: false });
addFormats(ajv);

type Validation<T> = { ok: true; value: T } | { ok: false; path: string; message: string };
export type Validator<T> = (data: unknown) => Validation<T>;

/** JSON Pointer "/line_items/0/quantity" -> JSONPath "$.line_items[0].quantity". */
export function toJsonPath(pointer: string): string {
  if (pointer === '') return '$';
  return (
    '$' +
    pointer
      .slice(1)
      .split('/')
      .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'))
      .map((seg) => (/^\d+$/.test(seg) ? `[${seg}]` : /^[A-Za-z_][A-Za-z0-9_]*$/.test(seg) ? `.${seg}` : `[${JSON.stringify(seg)}]`))
      .join('')
  );
}

function describe(error: ErrorObject): { path: string; message: string } {
  let pointer = error.instancePath;
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') pointer += `/${String(params.missingProperty)}`;
  if (error.keyword === 'additionalProperties') pointer += `/${String(params.additionalProperty)}`;
  const path = toJsonPath(pointer);
  const detail =
    error.keyword === 'required'
      ? 'is required'
      : error.keyword === 'additionalProperties'
        ? 'is not allowed here'
        : error.keyword === 'enum'
          ? `must be one of ${JSON.stringify(params.allowedValues)}`
          : error.keyword === 'anyOf' && error.parentSchema?.description
            ? `must be ${String(error.parentSchema.description)}`
            : (error.message ?? 'is invalid');
  return { path, message: `${path} ${detail}` };
}

/**
 * Compiled validators by schema text. Ajv caches by object, so a schema built anew per call (a
 * tenant schema naming this build's adapters, a data file's row array) would compile again, and
 * stay in Ajv's cache, every time; by text it compiles once per distinct schema.
 */
const compiled = new Map<string, ValidateFunction>();
/** The same object again (most callers pass a module's constant) skips writing out its text. */
const compiledObjects = new WeakMap<object, ValidateFunction>();

function validatorOf(schema: TSchema | Record<string, unknown>): ValidateFunction {
  let check = compiledObjects.get(schema);
  if (check) return check;
  const key = JSON.stringify(schema);
  check = compiled.get(key);
  if (!check) compiled.set(key, (check = ajv.compile(withSharedParts(schema))));
  compiledObjects.set(schema, check);
  return check;
}

export function compile<T>(schema: TSchema | Record<string, unknown>): Validator<T> {
  const check = validatorOf(schema);
  return (data) => {
    if (check(data)) return { ok: true, value: data as T };
    const errors = check.errors ?? [];
    // A described union ("a reference {env} or {file}") says more than its first branch's complaint.
    const chosen = errors.find((e) => e.keyword === 'anyOf' && e.parentSchema?.description) ?? errors[0];
    return chosen ? { ok: false, ...describe(chosen) } : { ok: false, path: '$', message: '$ is invalid' };
  };
}
