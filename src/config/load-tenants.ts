/**
 * Reads every tenant file under <configDir>/tenants, validates it, and fails start-up with
 * "<file>: <JSON path> <what is expected>" on the first problem found.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { compile } from '../../schemas/validator.js';
import { ConfigError } from '../../adapters/kit/config-error.js';
import { withIssuedCredentials } from './issued-credentials.js';
import { TenantConfig, tenantSchema } from './tenant-schema.js';

export interface LoadedTenant {
  config: TenantConfig;
  /** The file it came from, for error messages and relative paths. */
  file: string;
}

function parseFile(file: string, shown: string): unknown {
  const text = readFileSync(file, 'utf8');
  try {
    return file.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new ConfigError(`${shown}: not valid ${file.endsWith('.json') ? 'JSON' : 'YAML'}: ${(error as Error).message}`);
  }
}

function checkUnique(tenants: LoadedTenant[], shown: (t: LoadedTenant) => string): void {
  const seen = new Map<string, LoadedTenant>();
  const claim = (key: string, tenant: LoadedTenant, what: string) => {
    const other = seen.get(key);
    if (other) throw new ConfigError(`${shown(tenant)}: ${what} is already used by ${shown(other)}`);
    seen.set(key, tenant);
  };
  for (const tenant of tenants) {
    claim(`id:${tenant.config.id}`, tenant, `$.id "${tenant.config.id}"`);
    for (const host of tenant.config.hosts ?? []) claim(`host:${host.toLowerCase()}`, tenant, `host "${host}"`);
    if (tenant.config.path_prefix) claim(`prefix:${tenant.config.path_prefix}`, tenant, `$.path_prefix "${tenant.config.path_prefix}"`);
  }
}

/**
 * `adapterTypes`: the adapters this build has (adapters/registry.ts), as src/tenancy/load.ts passes
 * them; a file naming another is refused here. Without them (operator scripts reading the files)
 * an unknown type is refused when its tenant is built.
 */
export function loadTenantFiles(configDir: string, adapterTypes?: readonly string[]): LoadedTenant[] {
  const validateTenant = compile<TenantConfig>(adapterTypes ? tenantSchema(adapterTypes) : TenantConfig);
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
  const shown = (file: string) => relative(process.cwd(), file) || file;
  const tenants = names.map((name) => {
    const file = join(dir, name);
    const result = validateTenant(parseFile(file, shown(file)));
    if (!result.ok) throw new ConfigError(`${shown(file)}: ${result.message}`);
    return { config: withIssuedCredentials(result.value, configDir), file };
  });
  checkUnique(tenants, (t) => shown(t.file));
  const unrouted = tenants.filter((t) => !t.config.hosts?.length && !t.config.path_prefix);
  if (tenants.length > 1 && unrouted.length > 0) {
    throw new ConfigError(`${shown(unrouted[0]!.file)}: with several tenants each needs $.hosts or $.path_prefix`);
  }
  return tenants;
}
