/**
 * The seeded Medusa store (examples/medusa-store, its own install): a database made for it on
 * PostgreSQL, Medusa's own migrations (`medusa db:migrate`), the demo flower shop of config/demo
 * seeded through Medusa's workflows (`medusa exec`), and `medusa start` on a port. Used by the
 * Medusa test harness (once per test run) and by `npm run demo:medusa`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadStore } from '../adapters/memory/data/load-store.js';
import { fromMinorUnits } from '../adapters/kit/money.js';

export const MEDUSA_STORE_DIR = resolve('examples/medusa-store');
const MEDUSA_BIN = join(MEDUSA_STORE_DIR, 'node_modules/.bin/medusa');

/** What the seed wrote: the keys and ids the gateway's tenant needs. */
export interface MedusaSeed {
  publishableKey: string;
  secretKey: string;
  /** The store's default region: USD, prices before tax (tax-exclusive), Canada taxed at 5 % GST on top. */
  regionId: string;
  /** Germany: EUR, prices that include 19 % VAT (Medusa's tax-inclusive price preference for the region). */
  taxInclusiveRegionId: string;
  salesChannelId: string;
  stockLocationId: string;
  /** Demo product id (config/demo) -> Medusa product id. */
  products: Record<string, string>;
  /** Demo variant id -> Medusa variant id. */
  variants: Record<string, string>;
}

export interface MedusaStore {
  /** http://127.0.0.1:{port} */
  url: string;
  databaseUrl: string;
  seed: MedusaSeed;
  stop(): Promise<void>;
}

export interface MedusaStoreOptions {
  /** A PostgreSQL URL; its database is created (and dropped by `stop` when `dropOnStop`). */
  databaseUrl: string;
  port: number;
  dropOnStop: boolean;
  /** Progress lines (each step takes seconds). */
  progress?: (line: string) => void;
  /** More environment for `medusa start` (the push subscriber's PROTO_WEBHOOK_URL and PROTO_WEBHOOK_SECRET). */
  serverEnv?: Record<string, string>;
}

/** Why the store cannot be provisioned here, or undefined when it can. */
export function medusaInstallProblem(): string | undefined {
  if (existsSync(MEDUSA_BIN)) return undefined;
  // npm on the project's Node (the `node` devDependency), as the README installs it.
  const pin = (JSON.parse(readFileSync(resolve('package.json'), 'utf8')) as { devDependencies: { node: string } }).devDependencies.node;
  return `Medusa is not installed: run \`npx -y -p node@${pin} -- npm ci --prefix examples/medusa-store\` (about 700 MB, a minute)`;
}

/**
 * The payment providers the seeded regions offer: Medusa's system provider and the store's
 * test-card provider (examples/medusa-store/src/modules/test-card), which keeps of a session's
 * data what @medusajs/payment-stripe keeps, under two ids: a Stripe-like one (`pp_stripe_…`, as
 * Stripe's provider is named) and its own.
 */
export const MEDUSA_PAYMENT_PROVIDERS = {
  system: 'pp_system_default',
  stripeLike: 'pp_stripe_test-card',
  testCard: 'pp_test-card_test-card',
} as const;

/**
 * What the Medusa store has beyond config/demo, so each Medusa behaviour the adapter must meet is
 * there to be met: a second shipping profile (fragile goods ship apart, with their own option), a
 * tax rate on top of prices (Canada) and a region whose prices include tax (Germany).
 */
const MEDUSA_EXTRAS = {
  fragileProducts: ['vase_glass'],
  taxInclusiveRegion: { name: 'Germany', currency: 'eur', countries: ['de'], tax: { de: { rate: 19, code: 'DE-VAT', name: 'VAT' } } },
  tax: { ca: { rate: 5, code: 'CA-GST', name: 'GST' } },
} as const;

/** config/demo as the seed script's input (examples/medusa-store/src/scripts/seed.js): amounts in major units, as Medusa takes them. */
function seedInput(dataDir = resolve('config/demo')): unknown {
  const data = loadStore(dataDir, 'http://127.0.0.1');
  const major = (amount: number) => Number(fromMinorUnits(amount, data.currency));
  const products = data.products
    .filter((p) => p.variants.every((v) => !data.variants.get(v.id)!.discontinued))
    .map((p) => {
      const simple = p.options.length === 0;
      return {
        demoId: p.id,
        title: p.title,
        handle: p.handle,
        description: p.description,
        image: p.media[0]?.url,
        categories: p.categories.filter((c) => c.taxonomy === 'merchant').map((c) => c.value),
        // The shipping profile of the product: none for digital goods (Medusa then needs no shipping method for them).
        shippingProfile: !p.variants.some((v) => v.requiresShipping)
          ? null
          : (MEDUSA_EXTRAS.fragileProducts as readonly string[]).includes(p.id)
            ? 'fragile'
            : 'default',
        // Medusa products always have an option; a simple product gets Medusa's own default one.
        options: simple
          ? [{ title: 'Default option', values: ['Default option value'] }]
          : p.options.map((o) => ({ title: o.name, values: o.values })),
        variants: p.variants.map((v) => {
          const stored = data.variants.get(v.id)!;
          return {
            demoId: v.id,
            title: simple ? p.title : v.title,
            sku: v.sku,
            options: simple ? { 'Default option': 'Default option value' } : Object.fromEntries(v.options.map((o) => [o.name, o.value])),
            price: major(v.price.amount),
            stock: stored.stock,
            backorder: stored.backorder,
          };
        }),
      };
    });
  const florist = data.origins.get('florist')!;
  return {
    name: 'Petal & Stem Flower Co.',
    currency: data.currency.toLowerCase(),
    salesChannel: 'Gateway storefront',
    region: { name: 'United States and Canada', countries: ['us', 'ca'], tax: MEDUSA_EXTRAS.tax },
    taxInclusiveRegion: MEDUSA_EXTRAS.taxInclusiveRegion,
    paymentProviders: Object.values(MEDUSA_PAYMENT_PROVIDERS),
    shippingProfiles: [
      { key: 'default', name: 'Default Shipping Profile', type: 'default' },
      { key: 'fragile', name: 'Fragile goods', type: 'fragile' },
    ],
    products,
    location: {
      name: florist.name,
      address: {
        address_1: florist.address.streetAddress,
        city: florist.address.locality,
        province: florist.address.region,
        postal_code: florist.address.postalCode,
        country_code: florist.address.country,
      },
    },
    shipping: [
      {
        name: 'Standard Shipping',
        profile: 'default',
        code: 'standard',
        label: 'Standard',
        description: 'Arrives in 3-5 business days.',
        amount: 5,
      },
      {
        name: 'Express Shipping',
        profile: 'default',
        code: 'express',
        label: 'Express',
        description: 'Arrives in 1-2 business days.',
        amount: 15,
      },
      {
        name: 'Fragile Courier',
        profile: 'fragile',
        code: 'fragile',
        label: 'Fragile',
        description: 'Packed by hand, arrives in 2-4 business days.',
        amount: 12,
      },
    ],
    promotions: [...data.codes.values()]
      .filter((c) => ['10OFF', 'WELCOME20', 'FIXED500'].includes(c.key))
      .map((c) => ({
        code: c.key,
        type: c.type === 'percentage' ? 'percentage' : 'fixed',
        value: c.type === 'percentage' ? c.value : major(c.value),
      })),
  };
}

/** Runs a `medusa` command in the store's folder; rejects with its output when it fails. */
function medusa(args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(MEDUSA_BIN, args, { cwd: MEDUSA_STORE_DIR, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', fail);
    child.once('exit', (code) =>
      code === 0 ? done() : fail(new Error(`medusa ${args.join(' ')} exited with ${code}:\n${output.slice(-4000)}`)),
    );
  });
}

/** node-postgres from Medusa's own install (the gateway itself has no PostgreSQL client). */
type PgClient = { connect(): Promise<void>; query(sql: string): Promise<unknown>; end(): Promise<void> };
function pgClient(url: string): PgClient {
  const pg = createRequire(join(MEDUSA_STORE_DIR, 'package.json'))('pg') as {
    Client: new (options: { connectionString: string }) => PgClient;
  };
  return new pg.Client({ connectionString: url });
}

/** Runs one statement on the server's `postgres` database. */
async function adminQuery(databaseUrl: string, sql: string): Promise<void> {
  const url = new URL(databaseUrl);
  url.pathname = '/postgres';
  const client = pgClient(url.toString());
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const databaseName = (databaseUrl: string) => decodeURIComponent(new URL(databaseUrl).pathname.slice(1));

/** Fails fast with a clear message when PostgreSQL does not answer. */
async function checkPostgres(databaseUrl: string): Promise<void> {
  try {
    await adminQuery(databaseUrl, 'SELECT 1');
  } catch (error) {
    const url = new URL(databaseUrl);
    throw new Error(`PostgreSQL at ${url.host} does not answer (${(error as Error).message}): the Medusa store needs it`, { cause: error });
  }
}

export async function startMedusaStore(options: MedusaStoreOptions): Promise<MedusaStore> {
  const problem = medusaInstallProblem();
  if (problem) throw new Error(problem);
  const progress = options.progress ?? (() => {});
  const name = databaseName(options.databaseUrl);
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`database name "${name}" must be letters, digits and underscores`);
  await checkPostgres(options.databaseUrl);
  const work = mkdtempSync(join(tmpdir(), 'proto-medusa-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: options.databaseUrl,
    NODE_ENV: 'development',
    MEDUSA_DISABLE_TELEMETRY: 'true',
    SEED_FILE: join(work, 'shop.json'),
    SEED_OUT: join(work, 'seed.json'),
  };
  let server: ChildProcess | undefined;
  const stop = async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((done) => server!.once('exit', done));
      server.kill('SIGTERM');
      await Promise.race([exited, new Promise((done) => setTimeout(done, 5000))]);
      if (server.exitCode === null) server.kill('SIGKILL');
    }
    rmSync(work, { recursive: true, force: true });
    if (options.dropOnStop) await adminQuery(options.databaseUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  };
  try {
    // What `medusa db:setup` does, without its writing DB_NAME into the store folder's .env file
    // (parallel runs would race on it): create the database, then Medusa's own migrations.
    progress(`medusa: creating and migrating database ${name}`);
    await adminQuery(options.databaseUrl, `CREATE DATABASE "${name}"`);
    await medusa(['db:migrate'], env);
    progress('medusa: seeding the demo flower shop');
    writeFileSync(env.SEED_FILE!, JSON.stringify(seedInput()));
    await medusa(['exec', './src/scripts/seed.js'], env);
    const seed = JSON.parse(readFileSync(env.SEED_OUT!, 'utf8')) as MedusaSeed;
    progress(`medusa: starting on port ${options.port}`);
    const url = `http://127.0.0.1:${options.port}`;
    server = spawn(MEDUSA_BIN, ['start', '--port', String(options.port)], {
      cwd: MEDUSA_STORE_DIR,
      env: { ...env, ...options.serverEnv, PORT: String(options.port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    await untilHealthy(url, server);
    return { url, databaseUrl: options.databaseUrl, seed, stop };
  } catch (error) {
    await stop().catch(() => {});
    throw error;
  }
}

/** Waits for `GET /health` (Medusa answers it once its loaders ran), failing when the server exits. */
async function untilHealthy(url: string, server: ChildProcess, timeoutMs = 240_000): Promise<void> {
  let output = '';
  server.stdout?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  server.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`medusa start exited with ${server.exitCode}:\n${output}`);
    const healthy = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy) return;
    await new Promise((done) => setTimeout(done, 250));
  }
  throw new Error(`medusa start did not answer on ${url} within ${timeoutMs / 1000} s:\n${output}`);
}
