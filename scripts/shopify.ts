/**
 * Routine Shopify tasks for a tenant (CONFIG_DIR, as the gateway reads it):
 *
 *   npm run shopify -- webhooks register --tenant <id>   subscribe the gateway to the order topics
 *   npm run shopify -- webhooks list --tenant <id>       what the shop sends where
 *
 * `register` is idempotent: topics already subscribed for the tenant's webhook address are left
 * alone. The address is the tenant's `base_url` + /webhooks/backend.
 */
import { pathToFileURL } from 'node:url';
import { dirname } from 'node:path';
import type { ShopifyAdapter } from '../adapters/shopify/index.js';
import { createAdapter } from '../adapters/registry.js';
import { ConfigError } from '../adapters/kit/config-error.js';
import { settingsFromEnv } from '../src/config/env.js';
import { loadTenantFiles } from '../src/config/load-tenants.js';
import { resolveSecret } from '../src/config/secrets.js';
import { MemoryStore } from '../src/state/memory-store.js';
import { asksForHelp, helpText } from './cli-help.js';

export interface Io {
  out(line: string): void;
  err(line: string): void;
}

const USAGE = helpText({
  script: 'shopify',
  commands: [
    {
      usage: 'webhooks register --tenant <id>',
      does: "subscribes the gateway (base_url/webhooks/backend) to the shop's order topics; safe to run again",
    },
    { usage: 'webhooks list --tenant <id>', does: 'lists what the shop sends where, marking the subscriptions of this gateway' },
  ],
  notes: ['environment: CONFIG_DIR (the tenant files, default ./config), and the credentials the tenant file references'],
});

/** The tenant's Shopify adapter, built from its file as the gateway builds it. */
async function tenantAdapter(
  configDir: string,
  tenantId: string,
  env: NodeJS.ProcessEnv,
): Promise<{ adapter: ShopifyAdapter; callbackUrl: string }> {
  const loaded = loadTenantFiles(configDir).find((t) => t.config.id === tenantId);
  if (!loaded) throw new ConfigError(`no tenant "${tenantId}" in ${configDir}/tenants`);
  const { config, file } = loaded;
  if (config.adapter.type !== 'shopify')
    throw new ConfigError(`${file}: tenant "${tenantId}" uses the ${config.adapter.type} adapter, not shopify`);
  const credentials = Object.fromEntries(
    Object.entries(config.adapter.credentials ?? {}).map(([name, ref]) => [
      name,
      resolveSecret(ref, `${file}: $.adapter.credentials.${name}`, dirname(file), env),
    ]),
  );
  const { adapter } = await createAdapter(config.adapter, {
    credentials,
    baseDir: dirname(file),
    where: file,
    now: Date.now,
    store: new MemoryStore(),
    tenantId,
  });
  return { adapter: adapter as ShopifyAdapter, callbackUrl: `${config.base_url}/webhooks/backend` };
}

export async function run(args: readonly string[], io: Io, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  if (asksForHelp(args)) {
    io.out(USAGE);
    return 0;
  }
  const at = args.indexOf('--tenant');
  const tenant = at >= 0 ? args[at + 1] : undefined;
  const [group, command] = args.filter((_, i) => i !== at && i !== at + 1);
  if (group !== 'webhooks' || (command !== 'register' && command !== 'list') || !tenant || tenant.startsWith('--')) {
    io.err(USAGE);
    return 2;
  }
  const { adapter, callbackUrl } = await tenantAdapter(settingsFromEnv(env).configDir, tenant, env);
  try {
    if (command === 'list') {
      for (const s of await adapter.webhookSubscriptions())
        io.out(`${s.topic}  ${s.uri}${s.uri === callbackUrl ? '  (this gateway)' : ''}`);
      return 0;
    }
    io.err(`subscribing ${callbackUrl} to the order topics of ${tenant}...`);
    const { created, existing } = await adapter.registerWebhooks(callbackUrl);
    for (const topic of created) io.out(`created  ${topic}`);
    for (const topic of existing) io.out(`exists   ${topic}`);
    io.err(`${created.length} created, ${existing.length} already there`);
    return 0;
  } finally {
    await adapter.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  run(process.argv.slice(2), { out: (line) => process.stdout.write(`${line}\n`), err: (line) => process.stderr.write(`${line}\n`) }).then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      process.stderr.write(`${error instanceof ConfigError ? 'configuration error' : 'failed'}: ${(error as Error).message}\n`);
      process.exitCode = 1;
    },
  );
}
