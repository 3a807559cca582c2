/**
 * Runs the WooCommerce simulator on its own (the demo flower shop as a WooCommerce store):
 *
 *   npm run simulator:woocommerce            # PORT, default 8091
 *
 * Prints the store URL and the REST API key pair to put in a tenant file's credentials.
 */
import { DEFAULT_KEY, startWooSimulator } from '../simulators/woocommerce/server.js';
import { exitOnHelp } from './cli-help.js';

exitOnHelp({
  script: 'simulator:woocommerce',
  commands: [{ usage: '', does: 'the simulated WooCommerce store alone (the demo flower shop); prints its URL and REST API key pair' }],
  notes: ['environment: PORT (default 8091), HOST (default 127.0.0.1)'],
});

const port = Number(process.env.PORT ?? 8091);
const simulator = await startWooSimulator({ port, host: process.env.HOST ?? '127.0.0.1' });
process.stdout.write(
  [
    `WooCommerce simulator listening on ${simulator.url}`,
    `  REST API:  ${simulator.url}/wp-json/wc/v3   (OAuth 1.0a over plain HTTP)`,
    `  Store API: ${simulator.url}/wp-json/wc/store/v1`,
    `  WOO_CONSUMER_KEY=${DEFAULT_KEY.consumerKey}`,
    `  WOO_CONSUMER_SECRET=${DEFAULT_KEY.consumerSecret}`,
    '',
  ].join('\n'),
);
const stop = () => void simulator.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
