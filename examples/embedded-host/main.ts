/**
 * `npm run demo:host`: the host example on http://127.0.0.1:9100 (HOST_PORT; 0 = any free port),
 * creating sessions at the gateway on GATEWAY_URL (default http://127.0.0.1:$PORT, PORT 8080, so
 * `PORT=18080 npm start` pairs with `PORT=18080 npm run demo:host`). The demo tenant lets
 * http://127.0.0.1:9100 frame its pages. Start the gateway first (`npm start`), then open the
 * printed address. HOST_API_KEY: an API key the business issued to this agent, for a business that
 * requires one (sent with the sessions it creates, and given to the page when it asks).
 */
import { exitOnHelp } from '../../scripts/cli-help.js';
import { startHost } from './server.js';

exitOnHelp({
  script: 'demo:host',
  commands: [
    { usage: '', does: 'the host example: an agent page that frames the embedded cart and checkout of the gateway (open it in a browser)' },
  ],
  notes: ['environment: HOST_PORT (default 9100), GATEWAY_URL (default http://127.0.0.1:$PORT, PORT 8080), HOST_API_KEY'],
});

const port = Number.parseInt(process.env.HOST_PORT || '9100', 10);
const gateway = process.env.GATEWAY_URL || `http://127.0.0.1:${process.env.PORT || 8080}`;

const apiKey = process.env.HOST_API_KEY || undefined;

startHost({ port, gateway, ...(apiKey && { apiKey }) }).then(
  (host) => {
    process.stdout.write(`host example on ${host.origin} (sessions from ${gateway}); open it in a browser\n`);
    const stop = () => void host.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  },
  (error: unknown) => {
    process.stderr.write(`could not start the host example: ${(error as Error).message}\n`);
    process.exitCode = 1;
  },
);
