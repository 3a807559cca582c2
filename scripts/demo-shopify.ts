/**
 * `npm run demo:shopify`: the Shopify simulator (the demo flower shop behind the real Admin and
 * Storefront schemas) and the gateway in front of it with a `shopify` tenant, its webhooks
 * registered the way a merchant registers them. PORT is the gateway's port (default 8080; 0 picks
 * a free one) and what the tenant advertises; SHOPIFY_SIMULATOR_PORT the simulator's (default: free).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startShopifySimulator } from '../simulators/shopify/server.js';
import { simulatedTenantEnv, simulatedTenantYaml } from '../simulators/shopify/tenant-file.js';
import { run as shopifyTask } from './shopify.js';
import { exitOnHelp } from './cli-help.js';

const HOST = '127.0.0.1';

/** The port the gateway will listen on: PORT, or a free one for 0. */
async function gatewayPort(): Promise<number> {
  const wanted = Number(process.env.PORT ?? 8080);
  if (wanted !== 0) return wanted;
  return new Promise((resolvePort, reject) => {
    const probe = createServer().listen(0, HOST, () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolvePort(port));
    });
    probe.on('error', reject);
  });
}

async function main(): Promise<void> {
  const simulator = await startShopifySimulator({ port: Number(process.env.SHOPIFY_SIMULATOR_PORT ?? 0) });
  const port = await gatewayPort();
  const configDir = mkdtempSync(join(tmpdir(), 'shopify-demo-'));
  mkdirSync(join(configDir, 'tenants'));
  const tenant = { id: 'shopify-demo', baseUrl: `http://${HOST}:${port}`, apiOrigin: simulator.url, shop: simulator.shopDomain };
  writeFileSync(join(configDir, 'tenants', 'shopify-demo.yaml'), simulatedTenantYaml(tenant));
  const env = { ...process.env, CONFIG_DIR: configDir, PORT: String(port), ...simulatedTenantEnv(simulator.credentials) };
  const gateway = spawn(process.execPath, [join(dirname(fileURLToPath(import.meta.url)), '../src/main.js')], {
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const cleanup = async () => {
    await simulator.close();
    rmSync(configDir, { recursive: true, force: true });
  };
  gateway.on('exit', (code) => void cleanup().then(() => process.exit(code ?? 0)));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => gateway.kill(signal));

  // The merchant's step: subscribe the gateway to the shop's order webhooks (once it answers).
  const base = `http://${HOST}:${port}`;
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(`${base}/.well-known/proto`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const log = (line: string) => process.stdout.write(`[demo:shopify] ${line}\n`);
  await shopifyTask(['webhooks', 'register', '--tenant', 'shopify-demo'], { out: log, err: log }, env);
  log(`Shopify simulator (${simulator.shopDomain}): ${simulator.url}`);
  log(`gateway: ${base}  profile: ${base}/.well-known/proto`);
  log('a checkout completes by handoff: open its continue_url and press "Pay now" (or POST {continue_url path}/pay);');
  log(
    'the order then arrives by webhook. Ship it: ' +
      `curl -X POST ${simulator.url}/_simulator/orders/<order id>/fulfill -H 'content-type: application/json' ` +
      `-d '{"tracking":{"company":"UPS","number":"1Z999"}}'`,
  );
}

exitOnHelp({
  script: 'demo:shopify',
  commands: [
    {
      usage: '',
      does: 'a Shopify simulator (the demo flower shop) and the gateway in front of it, webhooks registered; Ctrl-C stops both',
    },
  ],
  notes: ['environment: PORT (the gateway, default 8080; 0: a free one), SHOPIFY_SIMULATOR_PORT (default a free one)'],
});
main().catch((error: unknown) => {
  process.stderr.write(`demo:shopify failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
