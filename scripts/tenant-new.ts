/**
 * `npm run tenant -- new`: writes a new tenant file (tenant-template.ts) and its signing key into
 * the config folder, refusing to overwrite either, and prints the secrets the gateway will need
 * (names only, never values) and what is left to do: routing, webhooks, keys, loading, the check.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ADAPTERS, type RegisteredAdapter } from '../adapters/registry.js';
import { ConfigError } from '../adapters/kit/config-error.js';
import {
  checkUnique,
  readTenantFile,
  shownPath,
  tenantFiles,
  tenantValidator,
  unrouted,
  type LoadedTenant,
} from '../src/config/load-tenants.js';
import { generatePrivateJwk } from '../src/security/keyring.js';
import type { Io } from './issued-tool.js';
import { generateTenant, type GeneratedTenant, type TenantRequest } from './tenant-template.js';
import { webhookStep } from './tenant-platforms.js';

export interface NewTenantOptions extends Omit<TenantRequest, 'signing'> {
  type: string;
  configDir: string;
}

/** The tenants already there (a broken file is left to `check`), and a warning per file left unread. */
function existingTenants(configDir: string, io: Io): LoadedTenant[] {
  let files: string[];
  try {
    files = tenantFiles(configDir);
  } catch {
    return []; // no tenants/ folder or no file yet: the new one is the first
  }
  const validate = tenantValidator(ADAPTERS.map((a) => a.type));
  return files.flatMap((file) => {
    try {
      return [readTenantFile(file, configDir, validate)];
    } catch (error) {
      io.err(`note: ${(error as Error).message} (left as it is; npm run tenant -- check reports it)`);
      return [];
    }
  });
}

/** Refuses what would stop start-up because of the new file; warns of another file that stops it once there are two tenants. */
function fitsWithOthers(added: LoadedTenant, others: LoadedTenant[]): string[] {
  const all = [...others, added];
  checkUnique(all);
  if (all.length < 2) return [];
  const lost = unrouted(all);
  if (lost.includes(added))
    throw new ConfigError(`the config has other tenants: give this one --host (or --path-prefix) so requests can reach it`);
  return lost.map(
    (t) => `${shownPath(t.file)} has no hosts or path_prefix: with several tenants the gateway refuses to start; give it one`,
  );
}

function nextSteps(generated: GeneratedTenant, keyFile: string, warnings: string[]): string[] {
  const { config } = generated;
  const url = config.base_url ? `${config.base_url}/webhooks/backend` : '<base_url>/webhooks/backend';
  const webhooks = webhookStep(config.adapter.type, config.id, url);
  return [
    ...warnings.map((w) => `warning: ${w}`),
    ...(config.hosts?.length
      ? [`route: point ${config.hosts.join(', ')} at the gateway (DNS or your proxy); the tenant answers at ${config.base_url}`]
      : [`route: the tenant answers at ${config.base_url ?? "the gateway's BASE_URL"}${config.path_prefix ?? ''}`]),
    ...(webhooks ? [`webhooks: ${webhooks}`] : []),
    `keys: ${shownPath(keyFile)} signs the tenant's answers and webhooks; every replica needs the same file (or move it into a ` +
      'secret store and reference it as { env: NAME })',
    'load: a running gateway reads the new file on SIGHUP, or at once with CONFIG_WATCH=true',
    `check: npm run tenant -- check --id ${config.id}`,
  ];
}

export async function newTenant(options: NewTenantOptions, io: Io, adapters: readonly RegisteredAdapter[] = ADAPTERS): Promise<number> {
  const definition = adapters.find((a) => a.type === options.type);
  if (!definition) throw new ConfigError(`--type must be one of ${adapters.map((a) => a.type).join(', ')}`);
  const tenantsDir = join(options.configDir, 'tenants');
  const file = join(tenantsDir, `${options.id}.yaml`);
  const keyFile = join(options.configDir, 'keys', `${options.id}.jwk`);
  for (const taken of [...['yaml', 'yml', 'json'].map((ext) => join(tenantsDir, `${options.id}.${ext}`)), keyFile])
    if (existsSync(taken)) throw new ConfigError(`${shownPath(taken)} already exists; it is left as it is (choose another --id)`);
  const key = await generatePrivateJwk('ES256');
  const generated = generateTenant(definition, { ...options, signing: { ref: { file: `../keys/${options.id}.jwk` }, kid: key.kid } });
  const warnings = fitsWithOthers({ config: generated.config, file }, existingTenants(options.configDir, io));
  mkdirSync(join(options.configDir, 'keys'), { recursive: true, mode: 0o700 });
  writeFileSync(keyFile, `${JSON.stringify(key)}\n`, { flag: 'wx', mode: 0o600 });
  mkdirSync(tenantsDir, { recursive: true });
  writeFileSync(file, generated.yaml, { flag: 'wx' });
  io.out(`wrote ${shownPath(file)} (a ${definition.type} tenant) and its signing key ${shownPath(keyFile)} (readable by you only)`);
  if (generated.secrets.length > 0) {
    const env = generated.secrets.every((s) => 'env' in s.ref);
    io.out(
      env
        ? 'environment variables it needs where the gateway runs (never in the file):'
        : 'secret files it needs (one value each, chmod 600):',
    );
    const shown = generated.secrets.map((s) => ('env' in s.ref ? s.ref.env : shownPath(join(tenantsDir, s.ref.file))));
    const width = Math.max(...shown.map((s) => s.length));
    generated.secrets.forEach((s, i) => io.out(`  ${shown[i]!.padEnd(width)}  ${s.does}`));
  }
  io.out('next:');
  for (const step of nextSteps(generated, keyFile, warnings)) io.out(`  - ${step}`);
  return 0;
}
