/**
 * A new tenant file (`npm run tenant -- new`), generated from the schemas themselves so it cannot
 * drift from them: the adapter's settings schema (adapters/<type>/settings.ts) types every
 * `--set path=value` and says which settings are required and what each is, the definition's
 * `credentialNames` (or, for the REST adapter, the settings fields marked NAMES_CREDENTIAL) says
 * which secrets the file references, and the tenant schema (src/config/tenant-schema.ts) checks the
 * whole file and describes its keys. Every description becomes a comment beside its key.
 */
import { Document, isMap, isScalar, visit, type Pair, type Scalar } from 'yaml';
import { NAMES_CREDENTIAL } from '../adapters/definition.js';
import { ConfigError } from '../adapters/kit/config-error.js';
import type { RegisteredAdapter } from '../adapters/registry.js';
import { tenantValidator } from '../src/config/load-tenants.js';
import { TenantConfig, type SecretRef } from '../src/config/tenant-schema.js';
import { CAPABILITY } from '../src/protocol/capability-registry.js';
import { compile } from '../schemas/validator.js';

export interface TenantRequest {
  id: string;
  name?: string;
  hosts: readonly string[];
  baseUrl?: string;
  pathPrefix?: string;
  /** `path=value` pairs into `adapter.settings`, typed by the adapter's schema. */
  set: readonly string[];
  /** How secrets are referenced: environment variables, or files beside the config (secrets/<id>/<name>). */
  secrets: 'env' | 'file';
  /** The signing key, already written by the caller. */
  signing: { ref: SecretRef; kid: string };
}

/** A secret the new file references. */
interface SecretNeeded {
  credential: string;
  ref: SecretRef;
  does: string;
}

export interface GeneratedTenant {
  config: TenantConfig;
  yaml: string;
  secrets: SecretNeeded[];
}

interface Schema {
  type?: string;
  description?: string;
  properties?: Record<string, Schema>;
  patternProperties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  items?: Schema;
  [NAMES_CREDENTIAL]?: boolean;
}

/** Every capability but identity linking, which needs a login source the new file does not configure. */
const CAPABILITIES = Object.values(CAPABILITY).filter((name) => name !== CAPABILITY.identityLinking);

const variants = (schema: Schema): Schema[] => schema.anyOf ?? [schema];

/** The schema of `path` under `schema`: a union's first variant that has the member. */
function schemaAt(schema: Schema, path: readonly string[]): Schema | undefined {
  let at: Schema | undefined = schema;
  for (const key of path) {
    at = variants(at)
      .map((v) => v.properties?.[key] ?? Object.values(v.patternProperties ?? {})[0])
      .find((found) => found !== undefined);
    if (!at) return undefined;
  }
  return at;
}

/** A command-line value as the schema types it: numbers, booleans, comma lists, JSON for objects. */
function typed(raw: string, schema: Schema): unknown {
  const types = variants(schema).map((v) => v.type);
  if (/^[[{]/.test(raw.trim()) && (types.includes('array') || types.includes('object'))) {
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      throw new ConfigError(`"${raw}" is not valid JSON`);
    }
  }
  if (types.includes('array')) return raw.split(',').map((item) => typed(item.trim(), schema.items ?? {}));
  if ((types.includes('integer') || types.includes('number')) && raw.trim() !== '' && Number.isFinite(Number(raw))) return Number(raw);
  if (types.includes('boolean') && (raw === 'true' || raw === 'false')) return raw === 'true';
  return raw;
}

function settingsFrom(pairs: readonly string[], definition: RegisteredAdapter): Record<string, unknown> {
  const schema = definition.settings as Schema;
  const settings: Record<string, unknown> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    const path = at > 0 ? pair.slice(0, at).split('.') : [];
    const member = path.length > 0 ? schemaAt(schema, path) : undefined;
    if (!member)
      throw new ConfigError(
        `--set ${pair}: ${at > 0 ? `a ${definition.type} tenant has no setting ${pair.slice(0, at)}` : 'expected NAME=VALUE'} ` +
          `(settings: ${Object.keys(schema.properties ?? {}).join(', ')})`,
      );
    let target = settings;
    for (const key of path.slice(0, -1)) target = (target[key] ??= {}) as Record<string, unknown>;
    target[path.at(-1)!] = typed(pair.slice(at + 1), member);
  }
  const missing = (schema.required ?? []).filter((name) => !(name in settings));
  if (missing.length > 0)
    throw new ConfigError(
      [`a ${definition.type} tenant needs these settings; give each with --set NAME=VALUE:`]
        .concat(missing.map((name) => `  ${name}: ${schema.properties?.[name]?.description ?? ''}`))
        .join('\n'),
    );
  const checked = compile(definition.settings)(settings);
  if (!checked.ok) throw new ConfigError(`--set: ${checked.message.replace(/^\$/, '$.adapter.settings')}`);
  return settings;
}

/** Credentials the settings name (REST: `auth.secret: api_secret`), found by the schema's NAMES_CREDENTIAL marks. */
function namedBySettings(value: unknown, schema: Schema, path: string[] = []): Array<{ name: string; does: string }> {
  if (typeof value === 'string')
    return schemaAt(schema, path)?.[NAMES_CREDENTIAL] ? [{ name: value, does: `named by adapter.settings.${path.join('.')}` }] : [];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, member]) => namedBySettings(member, schema, [...path, key]));
}

function credentialsOf(definition: RegisteredAdapter, settings: Record<string, unknown>) {
  const names = definition.credentialNames;
  const declared = Object.entries(names?.properties ?? {}).map(([name, schema]) => ({
    name,
    does: (schema as Schema).description ?? '',
    required: names?.required?.includes(name) ?? false,
  }));
  const named = namedBySettings(settings, definition.settings as Schema).map((c) => ({ ...c, required: true }));
  const unique = [...new Map([...declared, ...named].map((c) => [c.name, c])).values()];
  return { required: unique.filter((c) => c.required), optional: unique.filter((c) => !c.required) };
}

const envName = (id: string, credential: string) => {
  const name = `${id}_${credential}`.toUpperCase().replace(/[^A-Z0-9_]/g, '_');
  return /^[A-Z_]/.test(name) ? name : `TENANT_${name}`;
};

function configOf(definition: RegisteredAdapter, request: TenantRequest, settings: Record<string, unknown>, secrets: SecretNeeded[]) {
  const baseUrl = request.baseUrl ?? (request.hosts[0] ? `https://${request.hosts[0]}${request.pathPrefix ?? ''}` : undefined);
  const config = {
    id: request.id,
    name: request.name ?? request.id,
    ...(baseUrl && { base_url: baseUrl }),
    ...(request.hosts.length > 0 && { hosts: [...request.hosts] }),
    ...(request.pathPrefix && { path_prefix: request.pathPrefix }),
    adapter: {
      type: definition.type,
      settings,
      ...(secrets.length > 0 && { credentials: Object.fromEntries(secrets.map((s) => [s.credential, s.ref])) }),
    },
    capabilities: Object.fromEntries(CAPABILITIES.map((name) => [name, {}])),
    signing: { keys: [request.signing.ref], active_kid: request.signing.kid },
  };
  const checked = tenantValidator([definition.type])(config);
  if (!checked.ok) throw new ConfigError(`the tenant file would not validate: ${checked.message}`);
  const credentials = definition.credentials(Object.fromEntries(secrets.map((s) => [s.credential, 'given'])));
  if (!credentials.ok)
    throw new Error(`the ${definition.type} adapter's credentialNames do not satisfy its own check: ${credentials.message}`);
  return checked.value;
}

/** A description as comment lines of at most ~100 characters. */
function wrap(text: string, width = 100): string {
  const lines: string[] = [];
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + word.length < width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines.map((line) => ` ${line}`).join('\n');
}

/** Up to the first full stop that ends a sentence (not the one of "e.g."). */
const firstSentence = (text = '') => text.split(/(?<!\be\.g|\bi\.e)(?<=\.)\s+(?=[A-Z`])/)[0] ?? '';

function describeKeys(map: unknown, describe: (key: string) => string | undefined): void {
  if (!isMap(map)) return;
  for (const pair of map.items as Pair<Scalar, unknown>[]) {
    const text = isScalar(pair.key) ? describe(String(pair.key.value)) : undefined;
    if (text) pair.key.commentBefore = wrap(text);
  }
}

function render(
  config: TenantConfig,
  definition: RegisteredAdapter,
  secrets: SecretNeeded[],
  optional: { name: string; does: string }[],
): string {
  const doc = new Document(config);
  doc.commentBefore = [
    ` ${config.name}: a ${definition.type} tenant, written by \`npm run tenant -- new\`.`,
    ' Secrets are references ({ env } or { file }), never values; each setting below says what it is.',
    ` Check the file against the store: npm run tenant -- check --id ${config.id}`,
  ].join('\n');
  const top = TenantConfig.properties as Record<string, Schema>;
  describeKeys(doc.contents, (key) =>
    ['base_url', 'hosts', 'path_prefix', 'capabilities'].includes(key) ? top[key]?.description : undefined,
  );
  const settingsSchema = definition.settings as Schema;
  const settings = doc.getIn(['adapter', 'settings'], true);
  describeKeys(settings, (key) => settingsSchema.properties?.[key]?.description);
  const unset = Object.entries(settingsSchema.properties ?? {}).filter(([name]) => !(name in config.adapter.settings));
  if (isMap(settings) && unset.length > 0)
    settings.comment = [
      ' Optional settings:',
      ...unset.map(([name, s]) => `   ${name}${s.description ? `: ${firstSentence(s.description)}` : ''}`),
    ].join('\n');
  const credentials = doc.getIn(['adapter', 'credentials'], true);
  if (isMap(credentials)) {
    describeKeys(credentials, (key) => secrets.find((s) => s.credential === key)?.does);
    for (const pair of credentials.items as Pair<unknown, { flow?: boolean }>[]) if (pair.value) pair.value.flow = true;
    if (optional.length > 0) credentials.comment = [' Optional credentials:', ...optional.map((c) => `   ${c.name}: ${c.does}`)].join('\n');
  }
  const signing = doc.getIn(['signing'], true);
  const signingSchema = top.signing?.anyOf?.[0] ?? top.signing;
  describeKeys(signing, (key) => signingSchema?.properties?.[key]?.description);
  // Short lists on one line: hosts, currencies, the key references.
  visit(doc, {
    Seq: (_, seq) => {
      if (seq.items.every((item) => isScalar(item) || (isMap(item) && item.items.length === 1))) seq.flow = true;
    },
  });
  return doc.toString({ lineWidth: 0, flowCollectionPadding: false });
}

/** The tenant file for `request` on the adapter `definition`; a ConfigError says what is missing or wrong. */
export function generateTenant(definition: RegisteredAdapter, request: TenantRequest): GeneratedTenant {
  const settings = settingsFrom(request.set, definition);
  const { required, optional } = credentialsOf(definition, settings);
  const secrets = required.map(({ name, does }) => ({
    credential: name,
    ref: request.secrets === 'env' ? { env: envName(request.id, name) } : { file: `../secrets/${request.id}/${name}` },
    does,
  }));
  const config = configOf(definition, request, settings, secrets);
  return { config, yaml: render(config, definition, secrets, optional), secrets };
}
