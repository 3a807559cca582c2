/**
 * What `npm run rest -- check` reads from the environment without needing it: a credential or a
 * setting whose variable is not set gets a placeholder of the right type (the mappings compile
 * the same), and every variable the tenant names is listed, set here or not, for the operator to
 * provide at run time. With --live nothing is replaced: the store needs the real values.
 */
import { dirname } from 'node:path';
import type { TSchema } from '@sinclair/typebox';
import { RestSettings } from '../adapters/rest/settings.js';
import { settingsFromEnvironment } from '../src/config/setting-refs.js';
import { resolveSecret } from '../src/config/secrets.js';
import type { SecretRef } from '../src/config/tenant-schema.js';

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  patternProperties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  const?: unknown;
  enum?: unknown[];
  minimum?: number;
  pattern?: string;
  format?: string;
}

/** The schema of the value at `path` (`$.adapter.settings.a.b[0]`) of the REST settings. */
function schemaAt(path: string): Schema | undefined {
  const keys = path.replace(/^\$\.adapter\.settings\.?/, '').match(/[^.[\]]+/g) ?? [];
  let at: Schema | undefined = RestSettings as TSchema as Schema;
  for (const key of keys) {
    const choices: Schema[] = at?.anyOf ?? (at ? [at] : []);
    at = choices
      .map((s) => (/^\d+$/.test(key) ? s.items : (s.properties?.[key] ?? Object.values(s.patternProperties ?? {})[0])))
      .find(Boolean);
  }
  return at;
}

/** A value the setting's schema accepts, standing in for an unset variable. */
function placeholder(path: string): unknown {
  const schema = schemaAt(path);
  const first = schema?.anyOf?.find((s) => s.const !== undefined || s.type !== 'object') ?? schema;
  if (first?.const !== undefined) return first.const;
  if (first?.enum) return first.enum[0];
  if (first?.type === 'integer' || first?.type === 'number') return first.minimum ?? 1;
  if (first?.type === 'boolean') return false;
  if (first?.pattern?.includes('https?') || first?.format === 'uri') return 'https://placeholder.invalid';
  return 'placeholder';
}

export interface CheckInputs {
  settings: Record<string, unknown>;
  credentials: Record<string, string>;
  /** Each variable the tenant names: what it is for, and whether this environment sets it. */
  variables: Array<{ name: string; for: string; set: boolean }>;
}

/** The settings and credentials of a tenant file; `live`: the real values only (an unset one is an error). */
export function checkInputs(
  config: { adapter: { settings: Record<string, unknown>; credentials?: Record<string, SecretRef> } },
  file: string,
  env: NodeJS.ProcessEnv,
  live: boolean,
): CheckInputs {
  const variables: CheckInputs['variables'] = [];
  const missing = new Map<string, string>();
  const settings = settingsFromEnvironment(config.adapter.settings, file, env, live ? {} : { missing: { names: missing, placeholder } });
  const named = JSON.stringify(config.adapter.settings).matchAll(/\{"env":"([^"]+)"\}/g);
  const seen = new Set<string>();
  for (const [, name] of named) {
    if (seen.has(name!)) continue;
    seen.add(name!);
    variables.push({ name: name!, for: missing.get(name!) ?? settingPath(config.adapter.settings, name!), set: !missing.has(name!) });
  }
  const credentials: Record<string, string> = {};
  for (const [name, ref] of Object.entries(config.adapter.credentials ?? {})) {
    const where = `${file}: $.adapter.credentials.${name}`;
    if ('env' in ref) variables.push({ name: ref.env, for: `credential ${name}`, set: !!env[ref.env] });
    credentials[name] = live || ('env' in ref && env[ref.env]) ? resolveSecret(ref, where, dirname(file), env) : `placeholder-${name}`;
  }
  return { settings, credentials, variables };
}

/** Where a variable that is set is used (the first setting naming it). */
function settingPath(settings: unknown, name: string, path = '$.adapter.settings'): string {
  if (typeof settings !== 'object' || settings === null) return '';
  if ((settings as { env?: unknown }).env === name) return path;
  for (const [key, value] of Object.entries(settings)) {
    const found = settingPath(value, name, Array.isArray(settings) ? `${path}[${key}]` : `${path}.${key}`);
    if (found) return found;
  }
  return '';
}
