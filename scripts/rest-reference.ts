/**
 * The tenant-file reference of a REST tenant (docs/adapters/rest-tenant-reference.md), generated
 * from the schemas themselves: every key of the tenant file (src/config/tenant-schema.ts) and of
 * `adapter.settings` (settings.ts), with its type, whether it is required, its default, its
 * description and an example. `npm run rest -- reference` rewrites the file; a test regenerates
 * it and compares, so the reference is never behind the schema.
 */
import type { TSchema } from '@sinclair/typebox';
import { TenantConfig } from '../src/config/tenant-schema.js';
import { RestSettings } from '../adapters/rest/settings.js';

export const REFERENCE_FILE = 'docs/adapters/rest-tenant-reference.md';

interface Schema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  patternProperties?: Record<string, Schema>;
  description?: string;
  default?: unknown;
  examples?: unknown[];
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  format?: string;
}

interface Row {
  key: string;
  type: string;
  required: boolean;
  notes: string;
}

const code = (value: unknown) => `\`${JSON.stringify(value)}\``;

function typeOf(s: Schema): string {
  if (s.const !== undefined) return code(s.const);
  if (s.enum) return s.enum.map(code).join(' \\| ');
  if (s.anyOf) return s.anyOf.map(typeOf).join(' \\| ');
  if (s.type === 'array') return `${s.items ? typeOf(s.items) : 'any'}[]`;
  if (s.patternProperties) return `map of ${typeOf(Object.values(s.patternProperties)[0]!)}`;
  if (s.type === 'object') return s.properties ? 'object' : 'map';
  if (Array.isArray(s.type)) return s.type.join(' \\| ');
  return s.type ?? 'any';
}

function notes(s: Schema): string {
  const parts: string[] = [];
  // A sentence's closing period goes when the pattern, default or example follow it.
  if (s.description) parts.push(s.description.replace(/\.$/, ''));
  if (s.pattern) parts.push(`pattern \`${s.pattern}\``);
  if (s.format) parts.push(`format ${s.format}`);
  if (s.minimum !== undefined || s.maximum !== undefined) parts.push(`${s.minimum ?? '…'} to ${s.maximum ?? '…'}`);
  if (s.maxItems !== undefined) parts.push(`at most ${s.maxItems} items`);
  if (s.default !== undefined) parts.push(`default ${code(s.default)}`);
  if (s.examples?.length) parts.push(`e.g. ${code(s.examples[0])}`);
  return parts.join('; ').replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** Every key under `schema`, depth first; `stop` keys are listed but not entered. */
function rows(schema: Schema, prefix: string, out: Row[], stop: ReadonlySet<string> = new Set()): Row[] {
  const objects = [schema, ...(schema.anyOf ?? []), ...(schema.items ? [schema.items] : [])].filter((s) => s.properties);
  for (const object of objects) {
    for (const [key, child] of Object.entries(object.properties!)) {
      const path = `${prefix}${key}`;
      if (out.some((r) => r.key === path)) continue;
      out.push({ key: path, type: typeOf(child), required: object.required?.includes(key) ?? false, notes: notes(child) });
      if (stop.has(path)) continue;
      const inner = child.type === 'array' && child.items ? child.items : child;
      const nested = inner.patternProperties ? Object.values(inner.patternProperties)[0]! : inner;
      const marker = child.type === 'array' ? '[]' : inner.patternProperties ? '.<name>' : '';
      rows(nested, `${path}${marker}.`, out, stop);
    }
  }
  return out;
}

function table(list: Row[]): string {
  const lines = ['| key | type | required | description, default, example |', '| --- | --- | --- | --- |'];
  for (const r of list) lines.push(`| \`${r.key}\` | ${r.type} | ${r.required ? 'yes' : ''} | ${r.notes} |`);
  return lines.join('\n');
}

export function tenantReference(): string {
  const top = rows(TenantConfig, '', [], new Set(['adapter.settings', 'capabilities']));
  // The operations share one shape: listed by name, their keys once under `<operation>`.
  const rest = RestSettings as TSchema as Schema;
  const operations = rest.properties!.operations!.properties!;
  const names = Object.keys(operations).map((name) => `adapter.settings.operations.${name}`);
  const settings = rows(rest, 'adapter.settings.', [], new Set(names));
  rows(operations.search!, 'adapter.settings.operations.<operation>.', settings);
  return [
    '# Tenant-file reference (REST adapter)',
    '',
    '<!-- Generated from the schemas (scripts/rest-reference.ts) by `npm run rest -- reference`; do not edit. -->',
    '',
    'Every key of a tenant file whose `adapter.type` is `rest`, from the schemas the gateway checks',
    'it against at start-up. Examples: [config/rest-demo/tenants/flowers.yaml](../../config/rest-demo/tenants/flowers.yaml)',
    '(one call per operation) and [examples/rest-tenants/tenants/flowers-cart.yaml](../../examples/rest-tenants/tenants/flowers-cart.yaml)',
    '(a cart-side store: call sequences, mapping files, a `type: store` payment handler),',
    '[flowers-stateless.yaml](../../examples/rest-tenants/tenants/flowers-stateless.yaml) (a stateless store: no',
    'handle, no checkout page) and [medusa.yaml](../../examples/rest-tenants/tenants/medusa.yaml) (the real Medusa',
    'server: per-call auth, unrounded money). How the adapter uses them: [rest.md](rest.md).',
    '',
    '## The tenant file',
    '',
    table(top),
    '',
    '## `adapter.settings` (type `rest`)',
    '',
    'Any value below may be written `{env: NAME}`: it is then the environment variable NAME, read as if it were',
    'written in the file (`"250"` is a number), so one tenant file serves staging and production (`base_url:',
    '{env: STORE_BASE_URL}`); an unset variable stops start-up naming the setting and the variable.',
    '',
    table(settings),
    '',
  ].join('\n');
}
