/**
 * REST adapter tenant tasks, with the tenant files the gateway uses (CONFIG_DIR, default config):
 *
 *   npm run rest -- check --tenant <id> [--live]
 *   npm run rest -- webhooks register --tenant <id>   the store sends its order webhooks to the gateway
 *   npm run rest -- reference      rewrites docs/adapters/rest-tenant-reference.md from the schemas
 *
 * compiles every mapping of the tenant (inline and in files), as start-up does, so a syntax
 * error, an unknown function or variable, a missing mapping file or credential is reported with
 * its file, line and column. It needs no secret: a variable that is not set is replaced by a
 * placeholder, and every variable the tenant names (credentials, settings) is listed. With
 * --live (real values needed) it then runs each read operation once against the store (ping,
 * search, lookup of the first product found, find_order and get_order of made-up ids,
 * orders_changed_since when polling) and prints what each step sent and what the store answered,
 * with the credentials scrubbed. Exit code 0 when everything held, 1 otherwise.
 */
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeFileSync } from 'node:fs';
import { createRestAdapter, type RestAdapter } from '../adapters/rest/index.js';
import { REFERENCE_FILE, tenantReference } from './rest-reference.js';
import { asksForHelp, helpText } from './cli-help.js';
import { scrub } from '../adapters/rest/mapping.js';
import { RestSettings } from '../adapters/rest/settings.js';
import type { TraceEvent } from '../adapters/rest/steps.js';
import { ConfigError } from '../adapters/kit/config-error.js';
import { settingsFromEnv } from '../src/config/env.js';
import { loadTenantFiles } from '../src/config/load-tenants.js';
import { checkInputs } from './rest-check-env.js';
import { answerProblem, type CheckedMethod } from '../src/tenancy/adapter-answers.js';
import { compile } from '../schemas/validator.js';

export interface Io {
  out(line: string): void;
  err(line: string): void;
}

/** The reference as the repository keeps it: formatted by the project's prettier settings (the lint checks them). */
export async function formattedReference(): Promise<string> {
  const prettier = await import('prettier');
  return prettier.format(tenantReference(), { ...(await prettier.resolveConfig(REFERENCE_FILE)), filepath: REFERENCE_FILE });
}

const USAGE = helpText({
  script: 'rest',
  commands: [
    {
      usage: 'check --tenant <id> [--live]',
      does: 'compiles every mapping of a REST tenant as start-up does; --live then runs each read operation once against the store',
    },
    {
      usage: 'webhooks register --tenant <id>',
      does: 'asks the store (mapped register_webhook call) to send its order webhooks to base_url + path_prefix + /webhooks/backend',
    },
    { usage: 'reference', does: `rewrites ${REFERENCE_FILE} (every tenant-file key) from the schemas` },
  ],
  notes: ['environment: CONFIG_DIR (the tenant files, default ./config), and the credentials the tenant file references'],
});
const EXCERPT = 160;
const checkSettings = compile<RestSettings>(RestSettings);

function option(args: readonly string[], name: string): string | undefined {
  const at = args.findIndex((a) => a === name || a.startsWith(`${name}=`));
  if (at < 0) return undefined;
  return args[at]!.includes('=') ? args[at]!.slice(name.length + 1) : args[at + 1];
}

/**
 * Where the store delivers: the tenant's public base URL, its path prefix (unless base_url already
 * ends with it) and /webhooks/backend.
 */
function webhookUrl(baseUrl: string | undefined, prefix: string | undefined): string | undefined {
  if (!baseUrl) return undefined;
  const base = baseUrl.replace(/\/+$/, '');
  const prefixed = prefix && !new URL(base).pathname.replace(/\/+$/, '').endsWith(prefix) ? `${base}${prefix}` : base;
  return `${prefixed}/webhooks/backend`;
}

const excerpt = (value: unknown): string => {
  const text = value === undefined ? '' : (JSON.stringify(value) ?? '');
  return text.length > EXCERPT ? `${text.slice(0, EXCERPT)}…` : text;
};

/** The tenant's adapter, built as start-up builds it; `trace` sees every store exchange. */
async function adapterOf(tenantId: string, env: NodeJS.ProcessEnv, trace: (event: TraceEvent) => void, live: boolean, hooks = false) {
  const { configDir, baseUrl } = settingsFromEnv(env);
  const loaded = loadTenantFiles(configDir).find((t) => t.config.id === tenantId);
  if (!loaded) throw new ConfigError(`no tenant "${tenantId}" in ${configDir}/tenants`);
  const { config, file } = loaded;
  if (config.adapter.type !== 'rest') throw new ConfigError(`${file}: tenant "${tenantId}" is a ${config.adapter.type} tenant, not rest`);
  if (hooks && !config.adapter.settings.webhooks)
    throw new ConfigError(
      `${file}: tenant "${tenantId}" has no adapter.settings.webhooks: the gateway could not verify the store's deliveries`,
    );
  const inputs = checkInputs(config, file, env, live);
  const { credentials } = inputs;
  const settings = checkSettings(inputs.settings);
  if (!settings.ok) throw new ConfigError(`${file}: ${settings.message.replace(/^\$/, '$.adapter.settings')}`);
  const adapter = await createRestAdapter(settings.value, {
    credentials,
    where: file,
    baseDir: dirname(file),
    tenantId,
    now: Date.now,
    answerProblem: (method, answer) => answerProblem(method as CheckedMethod, answer),
    trace,
  });
  const url = webhookUrl(config.base_url ?? baseUrl, config.path_prefix);
  return { adapter, settings: settings.value, secrets: Object.values(credentials), variables: inputs.variables, webhookUrl: url };
}

/** Each read operation once, in an order where a later one can use what an earlier one found. */
async function live(adapter: RestAdapter, polling: boolean, report: (name: string, run: () => Promise<string>) => Promise<void>) {
  let productId: string | undefined;
  await report('ping', async () => (await adapter.ping(), 'the store answers'));
  await report('search', async () => {
    const page = await adapter.search({ limit: 3 });
    productId = page.products[0]?.id;
    return `${page.products.length} product(s)${page.nextPageToken ? ', more pages' : ''}`;
  });
  if (productId) await report('lookup', async () => `${(await adapter.lookup([productId!])).length} result(s) for ${productId}`);
  await report('find_order', async () => {
    const found = await adapter.findOrderByReference(`rest-check-${Date.now()}`);
    return found ? `unexpectedly found order ${found.orderId}` : 'no order for a made-up reference, as expected';
  });
  await report('get_order', async () => ((await adapter.getOrder('rest-check-unknown')) ? 'an order?' : 'no such order, as expected'));
  if (adapter.authenticateCustomer)
    await report('authenticate_customer', async () => {
      // A login no store has: the refusal must map to null (the login page's "do not match"), not fail.
      const login = { email: `rest-check-${Date.now()}@example.invalid`, password: randomBytes(12).toString('base64url') };
      return (await adapter.authenticateCustomer!(login)) ? 'a made-up login was accepted?' : 'a made-up login is refused, as expected';
    });
  if (polling)
    await report('orders_changed_since', async () => {
      const changes = await adapter.ordersChangedSince!(new Date(Date.now() - 86_400_000).toISOString());
      return `${changes.length} order(s) changed in the last day`;
    });
}

export async function run(args: readonly string[], io: Io, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [command] = args;
  if (asksForHelp(args)) {
    io.out(USAGE);
    return 0;
  }
  if (command === 'reference') {
    writeFileSync(REFERENCE_FILE, await formattedReference());
    io.out(`wrote ${REFERENCE_FILE}`);
    return 0;
  }
  const tenantId = option(args, '--tenant');
  const registering = command === 'webhooks' && args[1] === 'register';
  if ((command !== 'check' && !registering) || !tenantId) {
    io.err(USAGE);
    return 2;
  }
  let secrets: readonly string[] = [];
  const say = (line: string) => io.out(scrub(line, secrets));
  const trace = (e: TraceEvent) =>
    say(
      `    ${e.step}${e.index !== undefined ? `[${e.index}]` : ''}: ${e.method} ${e.target}` +
        (e.sent !== undefined ? ` ${excerpt(e.sent)}` : '') +
        (e.error ? ` → ${e.error}` : ` → ${e.status}${e.got !== undefined ? ` ${excerpt(e.got)}` : ''}`),
    );
  let adapter: RestAdapter | undefined;
  try {
    const built = await adapterOf(tenantId, env, trace, registering || args.includes('--live'), registering);
    ({ adapter, secrets } = built);
    if (registering) {
      if (!built.webhookUrl) throw new ConfigError(`tenant "${tenantId}" has no base_url (nor BASE_URL): where should the store deliver?`);
      say(`registering ${built.webhookUrl} with the store of tenant ${tenantId}`);
      say(`done: the store answered ${excerpt(await adapter.registerWebhook(built.webhookUrl))}`);
      return 0;
    }
    const ops = Object.keys(built.settings.operations ?? {}).length;
    say(`${tenantId}: every mapping compiles (${ops} operation(s) of the tenant file, the rest defaults; shared functions defined)`);
    if (built.variables.length > 0) say('needs at run time (environment):');
    for (const v of built.variables) say(`  ${v.name} (${v.for}): ${v.set ? 'set' : 'not set here'}`);
    if (!args.includes('--live')) return 0;
    let failed = 0;
    await live(adapter, !!built.settings.polling, async (name, step) => {
      say(`  ${name}:`);
      try {
        say(`  ${name}: ok, ${await step()}`);
      } catch (error) {
        failed += 1;
        say(`  ${name}: FAILED: ${(error as Error).message}`);
      }
    });
    say(failed ? `${failed} operation(s) failed` : 'every read operation answered');
    return failed ? 1 : 0;
  } catch (error) {
    io.err(scrub(error instanceof ConfigError ? `configuration error: ${error.message}` : `failed: ${(error as Error).message}`, secrets));
    return 1;
  } finally {
    await adapter?.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  void run(process.argv.slice(2), {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  }).then((code) => (process.exitCode = code));
}
