/**
 * Reads every tenant file under <configDir>/tenants, validates it, and fails start-up with
 * "<file>: <JSON path> <what is expected>" on the first problem found. The steps are exported
 * for operator tools that read the files one by one (`npm run tenant -- check` reports every
 * broken file, not only the first).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { compile, type Validator } from '../../schemas/validator.js';
import { ConfigError } from '../../adapters/kit/config-error.js';
import { withIssuedCredentials } from './issued-credentials.js';
import { TenantConfig, tenantSchema } from './tenant-schema.js';

export interface LoadedTenant {
  config: TenantConfig;
  /** The file it came from, for error messages and relative paths. */
  file: string;
}

/** A file as error messages name it: relative to the working directory. */
export const shownPath = (file: string): string => relative(process.cwd(), file) || file;

function parseFile(file: string, shown: string): unknown {
  const text = readFileSync(file, 'utf8');
  try {
    return file.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new ConfigError(`${shown}: not valid ${file.endsWith('.json') ? 'JSON' : 'YAML'}: ${(error as Error).message}`);
  }
}

/** The tenant files of a config folder, sorted; fails when there is no tenants/ folder or no file in it. */
export function tenantFiles(configDir: string): string[] {
  const dir = join(configDir, 'tenants');
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((n) => /\.(ya?ml|json)$/.test(n))
      .sort();
  } catch {
    throw new ConfigError(`${dir}: no tenant directory; set CONFIG_DIR to a folder holding tenants/*.yaml`);
  }
  if (names.length === 0) throw new ConfigError(`${dir}: no tenant files (*.yaml, *.yml, *.json)`);
  return names.map((name) => join(dir, name));
}

/**
 * `adapterTypes`: the adapters this build has (adapters/registry.ts), as src/tenancy/load.ts passes
 * them; a file naming another is refused here. Without them (operator scripts reading the files)
 * an unknown type is refused when its tenant is built.
 */
export const tenantValidator = (adapterTypes?: readonly string[]): Validator<TenantConfig> =>
  compile<TenantConfig>(adapterTypes ? tenantSchema(adapterTypes) : TenantConfig);

/** One tenant file, parsed and validated, with the credentials issued to it (config/credentials). */
export function readTenantFile(file: string, configDir: string, validate: Validator<TenantConfig>): LoadedTenant {
  const result = validate(parseFile(file, shownPath(file)));
  if (!result.ok) throw new ConfigError(`${shownPath(file)}: ${result.message}`);
  return { config: withIssuedCredentials(result.value, configDir), file };
}

/** Each id, host and path prefix names one tenant. */
export function checkUnique(tenants: readonly LoadedTenant[]): void {
  const seen = new Map<string, LoadedTenant>();
  const claim = (key: string, tenant: LoadedTenant, what: string) => {
    const other = seen.get(key);
    if (other) throw new ConfigError(`${shownPath(tenant.file)}: ${what} is already used by ${shownPath(other.file)}`);
    seen.set(key, tenant);
  };
  for (const tenant of tenants) {
    claim(`id:${tenant.config.id}`, tenant, `$.id "${tenant.config.id}"`);
    for (const host of tenant.config.hosts ?? []) claim(`host:${host.toLowerCase()}`, tenant, `host "${host}"`);
    if (tenant.config.path_prefix) claim(`prefix:${tenant.config.path_prefix}`, tenant, `$.path_prefix "${tenant.config.path_prefix}"`);
  }
}

/** Tenants no request can be routed to: no hosts and no path prefix (fine only for a lone tenant). */
export const unrouted = (tenants: readonly LoadedTenant[]): LoadedTenant[] =>
  tenants.filter((t) => !t.config.hosts?.length && !t.config.path_prefix);

/** What must hold across the files: unique ids, hosts and path prefixes, and a route to each tenant when there are several. */
export function checkTenantSet(tenants: readonly LoadedTenant[]): void {
  checkUnique(tenants);
  const [first] = unrouted(tenants);
  if (tenants.length > 1 && first)
    throw new ConfigError(`${shownPath(first.file)}: with several tenants each needs $.hosts or $.path_prefix`);
}

export function loadTenantFiles(configDir: string, adapterTypes?: readonly string[]): LoadedTenant[] {
  const validate = tenantValidator(adapterTypes);
  const tenants = tenantFiles(configDir).map((file) => readTenantFile(file, configDir, validate));
  checkTenantSet(tenants);
  return tenants;
}
