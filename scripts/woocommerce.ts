/**
 * WooCommerce tenant tasks, with the tenant files the gateway uses (CONFIG_DIR, default config):
 *
 *   npm run woocommerce -- webhooks register --tenant <id>
 *
 * creates (or re-activates) the store's webhooks for the tenant's orders and products, delivering
 * to `{base_url}/webhooks/backend`, signed with the tenant's `webhook_secret` credential. Safe to
 * run again: webhooks already in place are kept. The gateway must be reachable at base_url, as
 * the store sends each new webhook a ping.
 */
import { pathToFileURL } from 'node:url';
import { dirname } from 'node:path';
import { ConfigError } from '../adapters/kit/config-error.js';
import { settingsFromEnv } from '../src/config/env.js';
import { loadTenantFiles } from '../src/config/load-tenants.js';
import { resolveSecret } from '../src/config/secrets.js';
import { compile } from '../schemas/validator.js';
import { WooHttp } from '../adapters/woocommerce/http.js';
import { CREDENTIALS, WooCommerceSettings } from '../adapters/woocommerce/settings.js';
import { registerWebhooks } from '../adapters/woocommerce/webhook-setup.js';
import { asksForHelp, helpText } from './cli-help.js';

export interface Io {
  out(line: string): void;
  err(line: string): void;
}

const USAGE = helpText({
  script: 'woocommerce',
  commands: [
    {
      usage: 'webhooks register --tenant <id>',
      does: "creates or re-activates the store's order and product webhooks to the gateway (base_url/webhooks/backend); safe to run again",
    },
  ],
  notes: ['environment: CONFIG_DIR (the tenant files, default ./config), and the credentials the tenant file references'],
});
const checkSettings = compile<WooCommerceSettings>(WooCommerceSettings);

function option(args: readonly string[], name: string): string | undefined {
  const at = args.findIndex((a) => a === name || a.startsWith(`${name}=`));
  if (at < 0) return undefined;
  return args[at]!.includes('=') ? args[at]!.slice(name.length + 1) : args[at + 1];
}

export async function run(args: readonly string[], io: Io, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [group, command] = args;
  if (asksForHelp(args)) {
    io.out(USAGE);
    return 0;
  }
  const tenantId = option(args, '--tenant');
  if (group !== 'webhooks' || command !== 'register' || !tenantId) {
    io.err(USAGE);
    return 2;
  }
  try {
    const { configDir } = settingsFromEnv(env);
    const loaded = loadTenantFiles(configDir).find((t) => t.config.id === tenantId);
    if (!loaded) throw new ConfigError(`no tenant "${tenantId}" in ${configDir}/tenants`);
    const { config, file } = loaded;
    if (config.adapter.type !== 'woocommerce')
      throw new ConfigError(`${file}: tenant "${tenantId}" is a ${config.adapter.type} tenant, not woocommerce`);
    const settings = checkSettings(config.adapter.settings);
    if (!settings.ok) throw new ConfigError(`${file}: ${settings.message.replace(/^\$/, '$.adapter.settings')}`);
    const secret = (name: string) => {
      const ref = config.adapter.credentials?.[name];
      if (!ref) throw new ConfigError(`${file}: $.adapter.credentials.${name} is required for this command`);
      return resolveSecret(ref, `${file}: $.adapter.credentials.${name}`, dirname(file), env);
    };
    const http = new WooHttp({
      storeUrl: settings.value.store_url.replace(/\/+$/, ''),
      consumerKey: secret(CREDENTIALS.key),
      consumerSecret: secret(CREDENTIALS.secret),
      queryStringAuth: settings.value.query_string_auth ?? false,
      timeoutMs: settings.value.request_timeout_ms ?? 15_000,
    });
    const deliveryUrl = `${config.base_url}/webhooks/backend`;
    io.out(`registering webhooks of ${settings.value.store_url} for tenant ${tenantId} -> ${deliveryUrl}`);
    const outcomes = await registerWebhooks(http, {
      deliveryUrl,
      secret: secret(CREDENTIALS.webhook),
      name: `Proto gateway: ${config.name}`,
      progress: (line) => io.out(`  ${line}`),
    });
    const created = outcomes.filter((o) => o.action !== 'kept').length;
    io.out(created ? `done: ${created} webhook(s) created or re-activated` : 'done: every webhook was already in place');
    return 0;
  } catch (error) {
    io.err(error instanceof ConfigError ? `configuration error: ${error.message}` : `failed: ${(error as Error).message}`);
    return 1;
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  void run(process.argv.slice(2), {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  }).then((code) => (process.exitCode = code));
}
