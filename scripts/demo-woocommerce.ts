/**
 * The gateway in front of a WooCommerce store, on one machine:
 *
 *   npm run demo:woocommerce                 # PORT (default 8080): the gateway; the store on a free port
 *   WOO_DEMO_FINISHING=handoff npm run demo:woocommerce   # or store_charged; default gateway_charged
 *
 * Starts the WooCommerce simulator (the demo flower shop as a WooCommerce store), writes a tenant
 * file for it (credentials by {env} reference, never in the file), starts the gateway on PORT
 * (PORT=0: a free port; what it prints is the port it really listens on), and registers the
 * store's webhooks to the gateway as `npm run woocommerce -- webhooks register` does.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { WooHttp } from '../adapters/woocommerce/http.js';
import { registerWebhooks } from '../adapters/woocommerce/webhook-setup.js';
import { DEFAULT_KEY, startWooSimulator } from '../simulators/woocommerce/server.js';
import { FINISHING_MODES, tenantFile, type Mode } from '../simulators/woocommerce/tenant-file.js';
import { freePort } from './free-port.js';
import { exitOnHelp } from './cli-help.js';

async function waitUntilReady(url: string, child: ReturnType<typeof spawn>): Promise<void> {
  for (let i = 0; i < 200 && child.exitCode === null; i++) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the gateway did not start');
}

async function main(): Promise<void> {
  const mode = (process.env.WOO_DEMO_FINISHING ?? 'gateway_charged') as Mode;
  if (!FINISHING_MODES.includes(mode)) throw new Error(`WOO_DEMO_FINISHING must be one of ${FINISHING_MODES.join(', ')}`);
  const host = process.env.HOST ?? '127.0.0.1';
  // PORT=0: a free port now, so the tenant's base_url can carry the one really listened on.
  const wanted = Number(process.env.PORT ?? 8080);
  const port = wanted === 0 ? await freePort(host) : wanted;
  const simulator = await startWooSimulator({ port: Number(process.env.WOO_SIMULATOR_PORT ?? 0) });
  const base = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
  const configDir = mkdtempSync(join(tmpdir(), 'woo-demo-'));
  mkdirSync(join(configDir, 'tenants'));
  writeFileSync(join(configDir, 'tenants', 'woo-demo.yaml'), tenantFile(base, simulator.url, mode));
  const webhookSecret = randomBytes(24).toString('base64url');
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: host,
    CONFIG_DIR: configDir,
    WOO_CONSUMER_KEY: DEFAULT_KEY.consumerKey,
    WOO_CONSUMER_SECRET: DEFAULT_KEY.consumerSecret,
    WOO_WEBHOOK_SECRET: webhookSecret,
  };
  const gateway = spawn(process.execPath, [resolve(import.meta.dirname, '../src/main.js')], {
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const stop = (signal: NodeJS.Signals) => {
    gateway.kill(signal);
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  gateway.once('exit', (code) => {
    void simulator.close().then(() => {
      rmSync(configDir, { recursive: true, force: true });
      process.exit(code ?? 0);
    });
  });
  await waitUntilReady(base, gateway);
  const http = new WooHttp({
    storeUrl: simulator.url,
    consumerKey: DEFAULT_KEY.consumerKey,
    consumerSecret: DEFAULT_KEY.consumerSecret,
    queryStringAuth: false,
    timeoutMs: 10_000,
  });
  await registerWebhooks(http, { deliveryUrl: `${base}/webhooks/backend`, secret: webhookSecret, name: 'Proto gateway demo' });
  process.stdout.write(
    [
      '',
      `WooCommerce demo (finishing: ${mode})`,
      `  gateway:        ${base}   profile: ${base}/.well-known/proto`,
      `  WooCommerce:    ${simulator.url}   (REST ${simulator.url}/wp-json/wc/v3, Store API ${simulator.url}/wp-json/wc/store/v1)`,
      '  store webhooks: order.created, order.updated, order.deleted, product.updated, product.deleted -> gateway',
      '',
    ].join('\n'),
  );
}

exitOnHelp({
  script: 'demo:woocommerce',
  commands: [
    {
      usage: '',
      does: 'a simulated WooCommerce store (the demo flower shop) and the gateway in front of it, webhooks registered; Ctrl-C stops both',
    },
  ],
  notes: ['environment: PORT (the gateway, default 8080; 0: a free one), WOO_DEMO_FINISHING (gateway_charged, store_charged or handoff)'],
});
main().catch((error: unknown) => {
  process.stderr.write(`demo:woocommerce failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
