/**
 * The agency's tenant tool, over the tenant files the gateway reads (CONFIG_DIR, or --dir):
 *
 *   npm run tenant -- new --type <type> --id <id> [--host <host>]... [--set <setting>=<value>]...
 *   npm run tenant -- check [--id <id>] [--json]
 *   npm run tenant -- list [--json]
 *
 * `new` writes a tenant file generated from the schemas (tenant-new.ts, tenant-template.ts);
 * `check` runs every check of each tenant against its store, read-only (tenant-checks.ts); `list`
 * shows each tenant with a quick probe of its store. Secrets are never printed: every line goes
 * out with the credentials the tool resolved scrubbed from it.
 */
import { pathToFileURL } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ADAPTERS } from '../adapters/registry.js';
import { ConfigError } from '../adapters/kit/config-error.js';
import { listenOrigin } from '../src/config/base-url.js';
import { settingsFromEnv } from '../src/config/env.js';
import { checkTenantSet, readTenantFile, shownPath, tenantFiles, tenantValidator, type LoadedTenant } from '../src/config/load-tenants.js';
import { scrubber } from '../src/tenancy/resilient-adapter.js';
import { asksForHelp, helpText } from './cli-help.js';
import type { Io } from './issued-tool.js';
import { checkTenant, fileRefused, type CheckContext, type Verdict } from './tenant-checks.js';
import { listTenants } from './tenant-list.js';
import { newTenant } from './tenant-new.js';

const TYPES = ADAPTERS.map((a) => a.type);

const settingsOf = (type: string) => {
  const schema = ADAPTERS.find((a) => a.type === type)!.settings as { properties?: object; required?: string[] };
  return Object.keys(schema.properties ?? {}).map((name) => (schema.required?.includes(name) ? `${name}*` : name));
};

const USAGE = helpText({
  script: 'tenant',
  commands: [
    {
      usage: `new --type <${TYPES.join('|')}> --id <id> [--host <host>]... [--set <setting>=<value>]...`,
      does: "writes tenants/<id>.yaml from the adapter's settings schema, with a signing key; prints the secrets it needs and what is left",
    },
    {
      usage: 'check [--id <id>] [--json] [--timeout <seconds>]',
      does: 'checks each tenant against its store, read-only: file, signing key, credentials, API version, webhooks, catalog',
    },
    {
      usage: 'list [--json] [--timeout <seconds>]',
      does: 'lists every tenant: id, adapter, hosts, finishing mode and health (a quick read-only probe of its store)',
    },
  ],
  notes: [
    'new also takes --name, --base-url (default https://<first host>), --path-prefix, --secrets env|file (default env).',
    'settings per type (--set NAME=VALUE; * required; lists comma-separated, objects as JSON):',
    ...TYPES.map((type) => `  ${type}: ${settingsOf(type).join(', ')}`),
    'environment: CONFIG_DIR (or --dir; default ./config), BASE_URL or HOST and PORT (base_url of files naming none),',
    'and the secrets the tenant files reference. Exit status: 0 all good, 1 a check or the command failed, 2 a usage error.',
  ],
});

const COMMON = { dir: { type: 'string' }, json: { type: 'boolean' }, timeout: { type: 'string' } } as const;
const OPTIONS = {
  new: {
    dir: COMMON.dir,
    type: { type: 'string' },
    id: { type: 'string' },
    name: { type: 'string' },
    host: { type: 'string', multiple: true },
    'base-url': { type: 'string' },
    'path-prefix': { type: 'string' },
    set: { type: 'string', multiple: true },
    secrets: { type: 'string' },
  },
  check: { ...COMMON, id: { type: 'string' } },
  list: COMMON,
} satisfies Record<string, ParseArgsConfig['options']>;
type Command = keyof typeof OPTIONS;

class UsageError extends Error {}

function seconds(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback * 1000;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0 || parsed > 600) throw new UsageError(`--timeout ${value}: seconds, 1 to 600`);
  return parsed * 1000;
}

/** Each tenant file read on its own, so one broken file does not hide the others. */
function readAll(configDir: string): Array<{ file: string; loaded?: LoadedTenant; error?: Error }> {
  const validate = tenantValidator(ADAPTERS.map((a) => a.type));
  return tenantFiles(configDir).map((file) => {
    try {
      return { file, loaded: readTenantFile(file, configDir, validate) };
    } catch (error) {
      return { file, error: error as Error };
    }
  });
}

/** Runs `work` over `items`, `limit` at a time, keeping their order. */
async function inTurns<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await work(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

interface TenantVerdicts {
  id: string;
  file: string;
  adapter?: string;
  checks: Verdict[];
}

async function check(values: { id?: string; json?: boolean; timeout?: string }, configDir: string, context: CheckContext, io: Io) {
  const files = readAll(configDir);
  const chosen = values.id ? files.filter((f) => f.loaded?.config.id === values.id) : files;
  if (values.id && chosen.length === 0) {
    const known = files.flatMap((f) => (f.loaded ? [f.loaded.config.id] : []));
    throw new ConfigError(`no tenant "${values.id}" in ${shownPath(configDir)}/tenants (${known.join(', ') || 'none readable'})`);
  }
  const tenants = await inTurns(chosen, 4, async ({ file, loaded, error }): Promise<TenantVerdicts> => {
    if (!loaded) return { id: shownPath(file), file, checks: fileRefused(error!.message) };
    return { id: loaded.config.id, file, adapter: loaded.config.adapter.type, checks: await checkTenant(loaded, context) };
  });
  let set: Verdict = { check: 'tenant set', status: 'ok', detail: 'ids, hosts and path prefixes are unique, every tenant is routed' };
  try {
    checkTenantSet(files.flatMap((f) => (f.loaded ? [f.loaded] : [])));
  } catch (error) {
    set = { check: 'tenant set', status: 'failed', detail: (error as Error).message };
  }
  const all = [...tenants.flatMap((t) => t.checks), ...(set.status === 'failed' ? [set] : [])];
  const ok = all.every((v) => v.status !== 'failed');
  if (values.json) io.out(JSON.stringify({ ok, tenants: tenants.map((t) => ({ ...t, file: shownPath(t.file) })), set }, null, 2));
  else {
    const width = Math.max(...tenants.map((t) => t.id.length), 1);
    for (const tenant of tenants)
      for (const v of tenant.checks)
        io.out(`${tenant.id.padEnd(width)}  ${v.check.padEnd(11)}  ${v.status === 'failed' ? 'FAILED' : v.status}: ${v.detail}`);
    if (set.status === 'failed') io.out(`${'*'.padEnd(width)}  ${set.check.padEnd(11)}  FAILED: ${set.detail}`);
    const count = (status: string) => all.filter((v) => v.status === status).length;
    io.out(`${tenants.length} tenant(s): ${count('ok')} ok, ${count('failed')} failed, ${count('skipped')} skipped`);
  }
  return ok ? 0 : 1;
}

function parse(command: Command, args: readonly string[]) {
  try {
    return parseArgs({ args: [...args], options: OPTIONS[command], strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

async function dispatch(args: readonly string[], io: Io, env: NodeJS.ProcessEnv, secrets: Set<string>): Promise<number> {
  const [command, ...rest] = args;
  if (command !== 'new' && command !== 'check' && command !== 'list')
    throw new UsageError(command ? `unknown command ${command}` : 'no command');
  const values = parse(command, rest) as Record<string, string | string[] | boolean | undefined>;
  const settings = settingsFromEnv(env);
  const configDir = (values.dir as string | undefined) ?? settings.configDir;
  if (command === 'new') {
    const { type, id, secrets = 'env' } = values as Record<string, string | undefined>;
    if (!type || !id) throw new UsageError('new needs --type and --id');
    if (secrets !== 'env' && secrets !== 'file') throw new UsageError('--secrets must be env or file');
    return newTenant(
      {
        type,
        id,
        configDir,
        hosts: (values.host as string[] | undefined) ?? [],
        set: (values.set as string[] | undefined) ?? [],
        secrets,
        ...(values.name !== undefined && { name: values.name as string }),
        ...(values['base-url'] !== undefined && { baseUrl: values['base-url'] as string }),
        ...(values['path-prefix'] !== undefined && { pathPrefix: values['path-prefix'] as string }),
      },
      io,
    );
  }
  const context: CheckContext = {
    env,
    baseUrl: settings.baseUrl ?? listenOrigin(settings.host, settings.port, settings.tls !== undefined),
    timeoutMs: seconds(values.timeout as string | undefined, command === 'check' ? 20 : 3),
    secrets,
    progress: (id, name, waited) => io.err(`${id}: ${name}: still waiting for the store (${waited} s)`),
  };
  if (command === 'list') return listTenants(readAll(configDir), context, io, values.json === true);
  return check(values, configDir, context, io);
}

export async function run(args: readonly string[], io: Io, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  if (asksForHelp(args)) {
    io.out(USAGE);
    return 0;
  }
  // Whatever is printed goes out without the credentials resolved on the way (an adapter's error may quote one).
  const secrets = new Set<string>();
  const scrub = (line: string) => scrubber([...secrets])(line);
  const scrubbed: Io = { out: (line) => io.out(scrub(line)), err: (line) => io.err(scrub(line)) };
  try {
    return await dispatch(args, scrubbed, env, secrets);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${error.message}\n${USAGE}`);
      return 2;
    }
    scrubbed.err(error instanceof ConfigError ? `configuration error: ${error.message}` : `failed: ${(error as Error).message}`);
    return 1;
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  void run(process.argv.slice(2), {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  }).then((code) => (process.exitCode = code));
}
