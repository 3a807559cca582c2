/**
 * `npm run demo:medusa`: a real Medusa v2 server (examples/medusa-store, seeded with the demo
 * flower shop) and the gateway in front of it with a `medusa-demo` tenant.
 *
 *   npm run demo:medusa                                  # PORT (default 8080; 0: a free one): the gateway
 *   MEDUSA_DEMO_FINISHING=handoff npm run demo:medusa    # or store_charged; default gateway_charged
 *
 * Medusa gets a fresh database with a unique name on the PostgreSQL server of DATABASE_URL
 * (default the local one, user postgres), migrated and seeded each run and dropped on exit;
 * MEDUSA_PORT is Medusa's port (default: a free one). The tenant file references the publishable
 * key by {env} and the secret key by {file} (a 0600 file in the run's temporary folder), never
 * by value. Medusa runs the store's push subscriber, posting order changes to the gateway's
 * backend webhook signed with a secret made for the run (the tenant's webhook_secret, by {env}).
 * Ctrl-C stops both and drops the database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ALL_CAPABILITIES_YAML } from '../simulators/tenant-capabilities.js';
import { freePort } from './free-port.js';
import { MEDUSA_PAYMENT_PROVIDERS, startMedusaStore, type MedusaStore } from './medusa-store.js';
import { exitOnHelp } from './cli-help.js';

const MODES = ['gateway_charged', 'store_charged', 'handoff'] as const;
type Mode = (typeof MODES)[number];
const HANDLERS: Record<Mode, string> = {
  gateway_charged: '  - { id: sandbox, name: dev.proto.payments.sandbox, type: sandbox, instruments: [card] }',
  store_charged: '  - { id: medusa-card, name: dev.proto.payments.store_card, type: store, instruments: [card] }',
  handoff: '  - { id: store-checkout, name: dev.proto.payments.handoff, type: handoff, instruments: [redirect] }',
};
const STOREFRONT = 'https://petal-and-stem.example';

const log = (line: string) => process.stdout.write(`[demo:medusa] ${line}\n`);

function tenantFile(base: string, store: MedusaStore, mode: Mode, secretKeyFile: string): string {
  return `# Written by npm run demo:medusa: a gateway in front of the seeded Medusa store.
id: medusa-demo
name: Petal & Stem (Medusa)
base_url: ${base}
adapter:
  type: medusa
  finishing: ${mode}
  order_poll_seconds: 10
  settings:
    backend_url: ${store.url}
    storefront_url: ${STOREFRONT}
    payment_provider: ${MEDUSA_PAYMENT_PROVIDERS.stripeLike}
    region_id: ${store.seed.regionId}
    sales_channel_id: ${store.seed.salesChannelId}
  credentials:
    publishable_key: { env: MEDUSA_PUBLISHABLE_KEY }
    secret_key: { file: ${secretKeyFile} }
    webhook_secret: { env: MEDUSA_WEBHOOK_SECRET }
${ALL_CAPABILITIES_YAML}payment_handlers:
${HANDLERS[mode]}
checkout:
  required_buyer_fields: [email]
policies:
  allow_loopback_profiles: true
signing:
  ephemeral_key: true
`;
}

/** A new database name on DATABASE_URL's server, unique per run. */
function runDatabaseUrl(): string {
  const url = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  url.pathname = `/proto_medusa_demo_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  return url.toString();
}

async function untilAnswers(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 600 && child.exitCode === null; i++) {
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the gateway did not start');
}

async function main(): Promise<void> {
  const mode = (process.env.MEDUSA_DEMO_FINISHING ?? 'gateway_charged') as Mode;
  if (!MODES.includes(mode)) throw new Error(`MEDUSA_DEMO_FINISHING must be one of ${MODES.join(', ')}`);
  const requested = Number(process.env.PORT ?? 8080);
  if (!Number.isInteger(requested) || requested < 0 || requested > 65535) throw new Error(`PORT=${process.env.PORT} is not a port`);
  const host = process.env.HOST ?? '127.0.0.1';
  // PORT=0: a free port now, so the tenant's base_url carries the one really listened on.
  const port = requested === 0 ? await freePort(host) : requested;
  const base = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;

  // Ctrl-C while Medusa is being set up: stop once the current step ends (its database is dropped).
  let interrupted = false;
  const interrupt = () => {
    interrupted = true;
    log('stopping once the current Medusa step ends');
  };
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);

  const webhookSecret = randomBytes(24).toString('base64url');
  const databaseUrl = runDatabaseUrl();
  log(`starting Medusa on PostgreSQL ${new URL(databaseUrl).host} (database ${new URL(databaseUrl).pathname.slice(1)}, dropped on exit)`);
  const started = Date.now();
  const store = await startMedusaStore({
    databaseUrl,
    port: Number(process.env.MEDUSA_PORT ?? 0) || (await freePort()),
    dropOnStop: true,
    progress: log,
    serverEnv: { PROTO_WEBHOOK_URL: `${base}/webhooks/backend`, PROTO_WEBHOOK_SECRET: webhookSecret },
  });
  log(`Medusa ready on ${store.url} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (interrupted) {
    await store.stop();
    process.exit(0);
  }

  const configDir = mkdtempSync(join(tmpdir(), 'proto-demo-medusa-'));
  const secretKeyFile = join(configDir, 'medusa-secret-key');
  writeFileSync(secretKeyFile, store.seed.secretKey, { mode: 0o600 });
  mkdirSync(join(configDir, 'tenants'));
  writeFileSync(join(configDir, 'tenants', 'medusa-demo.yaml'), tenantFile(base, store, mode, secretKeyFile));
  const gateway = spawn(process.execPath, [resolve(dirname(fileURLToPath(import.meta.url)), '../src/main.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: host,
      CONFIG_DIR: configDir,
      MEDUSA_PUBLISHABLE_KEY: store.seed.publishableKey,
      MEDUSA_WEBHOOK_SECRET: webhookSecret,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });

  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    if (gateway.exitCode === null && gateway.signalCode === null) {
      const exited = new Promise((done) => gateway.once('exit', done));
      gateway.kill('SIGTERM');
      await exited;
    }
    await store.stop().catch((error: unknown) => log(`dropping the database failed: ${(error as Error).message}`));
    rmSync(configDir, { recursive: true, force: true });
    process.exit(code);
  };
  process.removeListener('SIGINT', interrupt);
  process.removeListener('SIGTERM', interrupt);
  process.once('SIGINT', () => void stop(0));
  process.once('SIGTERM', () => void stop(0));
  gateway.once('exit', (code) => void stop(code ?? 1));
  if (interrupted) return void stop(0);

  await untilAnswers(`${base}/.well-known/proto`, gateway);
  const basic = `$(cat ${secretKeyFile}):`;
  process.stdout.write(
    [
      '',
      `Medusa demo (finishing: ${mode})`,
      `gateway: ${base}   profile: ${base}/.well-known/proto   (tenant medusa-demo)`,
      `Medusa:  ${store.url}   (Store API ${store.url}/store, Admin API ${store.url}/admin; no dashboard)`,
      '',
      'Try it (with an agent profile as in the README, $AGENT):',
      `  curl -s ${base}/catalog/search -H "$AGENT" -H "Request-Id: try-$RANDOM" -H 'Content-Type: application/json' \\`,
      `    -d '{"query": "roses"}' | jq '.products[] | {id, title}'`,
      'Discount codes: 10OFF, WELCOME20, FIXED500. Orders placed through the gateway are Medusa orders:',
      `  curl -s -u "${basic}" '${store.url}/admin/orders?fields=id,display_id,total,email' | jq .orders`,
      "Ship one on Medusa (POST /admin/orders/{id}/fulfillments): Medusa's subscriber pushes the change to the",
      'gateway, which sends the platform its order webhook (its 10 s poll is the fallback). Ctrl-C stops both',
      'and drops the database.',
      '',
    ].join('\n'),
  );
}

exitOnHelp({
  script: 'demo:medusa',
  commands: [
    {
      usage: '',
      does: 'a real Medusa server (examples/medusa-store, seeded on a fresh database) and the gateway in front of it; Ctrl-C stops both',
    },
  ],
  notes: [
    'environment: PORT (the gateway, default 8080; 0: a free one), MEDUSA_PORT (default a free one),',
    '  DATABASE_URL (the PostgreSQL server, default postgres://postgres@127.0.0.1:5432), MEDUSA_DEMO_FINISHING (gateway_charged, store_charged or handoff)',
  ],
});
main().catch((error: unknown) => {
  process.stderr.write(`demo:medusa failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
