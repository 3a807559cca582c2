/**
 * The outbox tool: order webhooks that exhausted their retries, in the state store the gateway
 * uses (STORE and STORE_PREFIX, read from the environment as the gateway reads them). Each tenant
 * has its own outbox: the tool reads those of the tenants in CONFIG_DIR, or the one `--tenant` names.
 *
 *   npm run outbox -- list [--tenant <id>]
 *   npm run outbox -- replay <event id> | --all [--tenant <id>]
 *
 * A replayed event goes to the end of its order's queue, due at once, with its retries reset;
 * it carries the order as it was when the event happened (its `created_time` says when).
 */
import { pathToFileURL } from 'node:url';
import { ConfigError } from '../adapters/kit/config-error.js';
import { settingsFromEnv } from '../src/config/env.js';
import { loadTenantFiles } from '../src/config/load-tenants.js';
import { openStore } from '../src/state/create-store.js';
import type { DeadJob, StateStore } from '../src/state/store.js';
import type { OrderEvent } from '../src/capabilities/order/order-event.js';
import { orderWebhookQueue } from '../src/capabilities/order/outbox.js';
import { asksForHelp, helpText } from './cli-help.js';
import { destinationText } from '../src/webhooks/destination-text.js';

export interface Io {
  out(line: string): void;
  err(line: string): void;
}

const USAGE = helpText({
  script: 'outbox',
  commands: [
    { usage: 'list [--tenant <id>]', does: 'lists the order webhooks that exhausted their retries (dead letters), oldest first' },
    {
      usage: 'replay <event id>|--all [--tenant <id>]',
      does: 'queues dead-lettered webhooks again: due at once, retries reset, after the rest of their order queue',
    },
  ],
  notes: [
    'environment: STORE (the Redis the gateway uses; with STORE=memory dead letters live inside the gateway process), STORE_PREFIX,',
    '  CONFIG_DIR (whose tenants it reads without --tenant, default ./config)',
  ],
});

const describe = (job: DeadJob<OrderEvent>) =>
  [
    job.id,
    `tenant=${job.payload.tenantId}`,
    `order=${job.payload.order.id}`,
    `kind=${job.payload.kind}`,
    `attempts=${job.attempts}`,
    `died=${new Date(job.diedAt).toISOString()}`,
    `to=${destinationText(job.payload.webhookUrl)}`,
    `reason=${JSON.stringify(job.reason)}`,
  ].join('  ');

/** `args` without `--tenant <id>`, and that id. */
function tenantOption(args: readonly string[]): { rest: string[]; tenant?: string } | null {
  const at = args.indexOf('--tenant');
  if (at < 0) return { rest: [...args] };
  const tenant = args[at + 1];
  if (tenant === undefined || tenant.startsWith('--')) return null;
  return { rest: args.filter((_, i) => i !== at && i !== at + 1), tenant };
}

/** `tenants`: the ids of the configured tenants, asked only when `--tenant` does not name one. */
export async function run(args: readonly string[], io: Io, store: StateStore, tenants: () => readonly string[]): Promise<number> {
  const parsed = tenantOption(args);
  const [command, target, ...extra] = parsed?.rest ?? [];
  const valid =
    parsed !== null &&
    extra.length === 0 &&
    ((command === 'list' && target === undefined) || (command === 'replay' && target !== undefined));
  if (!valid) {
    io.err(USAGE);
    return 2;
  }
  const queues = (parsed.tenant === undefined ? tenants() : [parsed.tenant]).map((tenant) => orderWebhookQueue(store, tenant));
  const dead = (await Promise.all(queues.map(async (queue) => (await queue.listDead()).map((job) => ({ ...job, queue }))))).flat();
  dead.sort((a, b) => a.diedAt - b.diedAt);
  if (command === 'list') {
    for (const job of dead) io.out(describe(job));
    io.err(`${dead.length} dead-lettered order webhook${dead.length === 1 ? '' : 's'}`);
    return 0;
  }
  const chosen = target === '--all' ? dead : dead.filter((job) => job.id === target);
  if (chosen.length === 0 && target !== '--all') {
    io.err(`no dead-lettered order webhook ${target}${parsed.tenant === undefined ? '' : ` of tenant ${parsed.tenant}`}`);
    return 1;
  }
  // Oldest death first, so events of one order go back in their original order.
  for (const job of chosen) {
    if (await job.queue.replay(job.id)) io.out(`replayed ${job.id} (order ${job.payload.order.id})`);
  }
  io.err(`${chosen.length} order webhook${chosen.length === 1 ? '' : 's'} queued again`);
  return 0;
}

async function main(): Promise<number> {
  if (asksForHelp(process.argv.slice(2))) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const settings = settingsFromEnv();
  if (settings.store === 'memory') {
    process.stderr.write('STORE is memory: dead letters live inside the gateway process. Set STORE to the Redis the gateway uses.\n');
    return 2;
  }
  const store = await openStore(settings);
  const tenants = () => loadTenantFiles(settings.configDir).map((tenant) => tenant.config.id);
  try {
    const io: Io = { out: (line) => process.stdout.write(`${line}\n`), err: (line) => process.stderr.write(`${line}\n`) };
    return await run(process.argv.slice(2), io, store, tenants);
  } finally {
    await store.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      process.stderr.write(`${error instanceof ConfigError ? 'configuration error' : 'failed'}: ${(error as Error).message}\n`);
      process.exitCode = 1;
    },
  );
}
