/**
 * Starts the Shopify simulator on its own: `npm run simulator:shopify [-- --port N]`
 * (default: SHOPIFY_SIMULATOR_PORT, else a free port). Prints its URL and credentials.
 */
import { parseArgs } from 'node:util';
import { exitOnHelp } from '../../scripts/cli-help.js';
import { startShopifySimulator } from './server.js';

exitOnHelp({
  script: 'simulator:shopify',
  commands: [
    {
      usage: '[--port N] [--latency MS] [--webhook-url URL]',
      does: 'the Shopify simulator alone (the demo flower shop behind the Admin and Storefront schemas); prints its URL and credentials',
    },
  ],
  notes: ['environment: SHOPIFY_SIMULATOR_PORT (without --port; default a free port)'],
});

const { values } = parseArgs({ options: { port: { type: 'string' }, latency: { type: 'string' }, 'webhook-url': { type: 'string' } } });
const simulator = await startShopifySimulator({
  port: Number(values.port ?? process.env.SHOPIFY_SIMULATOR_PORT ?? 0),
  ...(values.latency && { latencyMs: Number(values.latency) }),
  ...(values['webhook-url'] && { webhookUrl: values['webhook-url'] }),
});
const { storefrontToken, adminToken, clientId, clientSecret } = simulator.credentials;
console.log(`Shopify simulator for ${simulator.shopDomain} listening on ${simulator.url}`);
console.log(`  Storefront: POST ${simulator.url}/api/2026-10/graphql.json (Shopify-Storefront-Private-Token: ${storefrontToken})`);
console.log(`  Admin:      POST ${simulator.url}/admin/api/2026-10/graphql.json (X-Shopify-Access-Token: ${adminToken})`);
console.log(`  Client credentials grant: client_id ${clientId}, client_secret ${clientSecret} (also the webhook signing secret)`);
const stop = () => void simulator.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
