/**
 * `npm run demo:medusa` as a newcomer runs it (the compiled script): a real Medusa server on a
 * fresh database and the gateway on PORT advertising that port, the medusa-demo tenant answering a
 * search with Medusa's products and prices, and Ctrl-C stopping both and dropping the database.
 * Needs PostgreSQL and the Medusa store installed (`npm run test:all` installs it); in CI their
 * absence fails it.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDUSA_STORE_DIR, medusaInstallProblem } from '../../../scripts/medusa-store.js';
import { freePorts } from '../../helpers/redis-server.js';
import { startPlatform, type PlatformServer } from '../../helpers/platform.js';
import { buildGateway } from '../../ops/helpers/gateway-process.js';

const problem = medusaInstallProblem();
if (problem && process.env.CI === 'true') throw new Error(`demo:medusa needs its store: ${problem}`);
const suite = problem ? describe.skip : describe;

const refuses = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(true));
  });

/** Whether the database still exists (node-postgres from Medusa's own install). */
async function databaseExists(name: string): Promise<boolean> {
  const pg = createRequire(join(MEDUSA_STORE_DIR, 'package.json'))('pg') as {
    Client: new (o: { connectionString: string }) => {
      connect(): Promise<void>;
      query(sql: string, values: unknown[]): Promise<{ rowCount: number }>;
      end(): Promise<void>;
    };
  };
  const client = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
  await client.connect();
  try {
    return (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
  } finally {
    await client.end();
  }
}

suite('npm run demo:medusa', () => {
  let build: Awaited<ReturnType<typeof buildGateway>>;
  let platform: PlatformServer;
  beforeAll(async () => {
    build = await buildGateway();
    platform = await startPlatform();
  }, 180_000);
  afterAll(async () => {
    await platform?.close();
    await build?.remove();
  });

  it('starts Medusa on a fresh database and the gateway on PORT, serves its products; Ctrl-C stops both, drops the database', async () => {
    const [port] = (await freePorts(1)) as [number];
    const child = spawn(process.execPath, [join(build.dir, 'scripts/demo-medusa.js')], {
      env: { PATH: process.env.PATH, PORT: String(port), LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const banner: string[] = [];
    await new Promise<void>((resolve, reject) => {
      createInterface({ input: child.stdout }).on('line', (line) => {
        banner.push(line);
        if (line.startsWith('gateway:')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`demo:medusa exited with ${code}: ${stderr}`)));
    });
    const text = banner.join('\n');
    // Progress while Medusa starts, then where everything listens.
    expect(text).toContain('[demo:medusa] medusa: seeding the demo flower shop');
    expect(text).toContain(`gateway: http://127.0.0.1:${port}   profile: http://127.0.0.1:${port}/.well-known/proto`);
    const database = /database (proto_medusa_demo_\w+), dropped on exit/.exec(text)![1]!;
    const medusaPort = Number(/Medusa: {2}http:\/\/127\.0\.0\.1:(\d+)/.exec(text)![1]);
    expect(await databaseExists(database)).toBe(true);

    const origin = `http://127.0.0.1:${port}`;
    const profile = await fetch(`${origin}/.well-known/proto`);
    expect(JSON.stringify(await profile.json())).toContain(`"endpoint":"${origin}"`);
    const search = await fetch(`${origin}/catalog/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'proto-agent': platform.agent(), 'request-id': 'demo-medusa-1' },
      body: JSON.stringify({ query: 'roses' }),
    });
    const found = (await search.json()) as { products: Array<{ title: string; variants: Array<{ price: { amount: number } }> }> };
    // The demo shop's roses, as Medusa prices them (35.00 USD in the seed) in minor units.
    expect(found.products.find((p) => p.title === 'Bouquet of Red Roses')?.variants[0]?.price.amount).toBe(3500);

    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(await refuses(port)).toBe(true);
    expect(await refuses(medusaPort)).toBe(true);
    expect(await databaseExists(database)).toBe(false);
  }, 300_000);
});
