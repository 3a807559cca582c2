/**
 * Vitest global setup of the `medusa` project: one real Medusa server for the whole run (a fresh
 * database with a unique name on the local PostgreSQL, Medusa's migrations, the demo flower shop
 * seeded, `medusa start` on a free port), dropped afterwards. Test files reach it with
 * `inject('medusaStore')` (test/helpers/medusa-store.ts).
 *
 * With CI=true a missing PostgreSQL or Medusa install fails the run, never skips it. Elsewhere a
 * machine without the Medusa store installed (`npm run test:all` installs it) gets `unavailable` and the suites say
 * so (test/helpers/medusa-store.ts). MEDUSA_STORE_URL + MEDUSA_STORE_SEED (the seed's JSON) point
 * the suites at an already running seeded store instead, for quick local iterations.
 *
 * Push delivery: the store's subscriber (examples/medusa-store/src/subscribers/proto-gateway-webhook.js)
 * is started with PROTO_WEBHOOK_URL on a loopback port reserved here and a random
 * PROTO_WEBHOOK_SECRET, both provided as `push`; the push suite listens with its gateway on that
 * port (files run one at a time), and while nothing listens the subscriber's deliveries fail and
 * are only logged by Medusa.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { freePort } from '../../scripts/free-port.js';
import { medusaInstallProblem, startMedusaStore, type MedusaSeed } from '../../scripts/medusa-store.js';

export interface ProvidedMedusa {
  url?: string;
  seed?: MedusaSeed;
  /** Why no store runs (outside CI only). */
  unavailable?: string;
  /** Where the store's push subscriber delivers (http://127.0.0.1:{port}/webhooks/backend) and the secret it signs with. */
  push?: { port: number; secret: string };
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (process.env.MEDUSA_STORE_URL && process.env.MEDUSA_STORE_SEED) {
    const seed = JSON.parse(readFileSync(process.env.MEDUSA_STORE_SEED, 'utf8')) as MedusaSeed;
    project.provide('medusaStore', { url: process.env.MEDUSA_STORE_URL, seed });
    return undefined;
  }
  const problem = medusaInstallProblem();
  if (problem) {
    if (process.env.CI === 'true') throw new Error(`the Medusa suites need their store: ${problem}`);
    process.stderr.write(`\n!! Medusa suites not run: ${problem}\n\n`);
    project.provide('medusaStore', { unavailable: problem });
    return undefined;
  }
  const base = process.env.MEDUSA_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const url = new URL(base);
  url.pathname = `/proto_medusa_test_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const started = Date.now();
  const push = { port: await freePort(), secret: randomBytes(24).toString('base64url') };
  const store = await startMedusaStore({
    databaseUrl: url.toString(),
    port: await freePort(),
    dropOnStop: true,
    serverEnv: { PROTO_WEBHOOK_URL: `http://127.0.0.1:${push.port}/webhooks/backend`, PROTO_WEBHOOK_SECRET: push.secret },
    progress: (line) => process.stderr.write(`${line}\n`),
  });
  process.stderr.write(`medusa: ready on ${store.url} after ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  project.provide('medusaStore', { url: store.url, seed: store.seed, push });
  return () => store.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    medusaStore: ProvidedMedusa;
  }
}
