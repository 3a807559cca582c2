/**
 * `npm run demo:rest`: the reference store (examples/rest-store) and the gateway in front of it,
 * each its own process, the gateway serving the `flowers` tenant (config/rest-demo) through the
 * generic REST adapter. The gateway listens on PORT (default 8080; 0 = any free port) and
 * advertises the port it really listens on; the store on STORE_PORT (default: any free port).
 * Secrets are made up per run unless FLOWERS_STORE_API_SECRET / FLOWERS_STORE_WEBHOOK_SECRET are
 * set. Ctrl-C stops both.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';
import { freePort } from './free-port.js';
import { exitOnHelp } from './cli-help.js';

/** The compiled scripts (dist/, or a test's build folder); configuration comes from the working directory. */
const built = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TENANT_FILE = resolve('config/rest-demo/tenants/flowers.yaml');
const KEY_ID = 'flowers-gateway';

/** Starts the store and resolves its origin from the JSON line it prints when listening. */
function startStore(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; origin: string }> {
  const child = spawn(process.execPath, [join(built, 'examples/rest-store/main.js')], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((done, fail) => {
    child.once('exit', (code) => fail(new Error(`the reference store exited with ${code}`)));
    createInterface({ input: child.stdout }).once('line', (line) => {
      const origin = (JSON.parse(line) as { store?: string }).store;
      if (origin) done({ child, origin });
      else fail(new Error(`unexpected output from the reference store: ${line}`));
    });
  });
}

/** The tenant file with the addresses this run really uses. */
function writeTenant(configDir: string, gatewayOrigin: string, storeOrigin: string): void {
  const doc = parseDocument(readFileSync(TENANT_FILE, 'utf8'));
  doc.setIn(['base_url'], gatewayOrigin);
  doc.setIn(['adapter', 'settings', 'base_url'], `${storeOrigin}/api/v2`);
  doc.setIn(['adapter', 'settings', 'storefront_url'], storeOrigin);
  mkdirSync(join(configDir, 'tenants'), { recursive: true });
  writeFileSync(join(configDir, 'tenants', 'flowers.yaml'), doc.toString());
}

async function main(): Promise<void> {
  const requested = Number(process.env.PORT ?? 8080);
  if (!Number.isInteger(requested) || requested < 0 || requested > 65535) throw new Error(`PORT=${process.env.PORT} is not a port`);
  const port = requested === 0 ? await freePort() : requested;
  const host = process.env.HOST ?? '127.0.0.1';
  const gatewayOrigin = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
  const apiSecret = process.env.FLOWERS_STORE_API_SECRET ?? randomBytes(24).toString('base64url');
  const webhookSecret = process.env.FLOWERS_STORE_WEBHOOK_SECRET ?? randomBytes(24).toString('base64url');

  const store = await startStore({
    ...process.env,
    STORE_PORT: process.env.STORE_PORT ?? '0',
    STORE_KEY_ID: KEY_ID,
    STORE_API_SECRET: apiSecret,
    STORE_WEBHOOK_SECRET: webhookSecret,
    STORE_WEBHOOK_URL: `${gatewayOrigin}/webhooks/backend`,
    STORE_CONTROLS: 'true',
    STORE_DATA_DIR: resolve('config/demo'),
  });
  const configDir = mkdtempSync(join(tmpdir(), 'proto-demo-rest-'));
  writeTenant(configDir, gatewayOrigin, store.origin);
  process.stdout.write(
    `reference store: ${store.origin} (API ${store.origin}/api/v2, back office ${store.origin}/_control/orders/{id}/events)\n` +
      `gateway:         ${gatewayOrigin} (tenant flowers, REST adapter)\n`,
  );
  const gateway = spawn(process.execPath, [join(built, 'src/main.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: host,
      CONFIG_DIR: configDir,
      FLOWERS_STORE_API_SECRET: apiSecret,
      FLOWERS_STORE_WEBHOOK_SECRET: webhookSecret,
    },
    stdio: 'inherit',
  });

  const children = [store.child, gateway];
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      ),
    );
    rmSync(configDir, { recursive: true, force: true });
    process.exit(code);
  };
  process.once('SIGINT', () => void stop(0));
  process.once('SIGTERM', () => void stop(0));
  for (const child of children) child.once('exit', (code) => void stop(code ?? 1));
}

exitOnHelp({
  script: 'demo:rest',
  commands: [
    {
      usage: '',
      does: 'the reference REST store (examples/rest-store) and the gateway in front of it (tenant flowers); Ctrl-C stops both',
    },
  ],
  notes: [
    'environment: PORT (the gateway, default 8080; 0: a free one), STORE_PORT (the store, default a free one),',
    '  FLOWERS_STORE_API_SECRET, FLOWERS_STORE_WEBHOOK_SECRET (default: made up per run)',
  ],
});
main().catch((error: unknown) => {
  process.stderr.write(`demo:rest failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
