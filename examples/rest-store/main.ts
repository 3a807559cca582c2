/**
 * Runs the reference store as its own process (`npm run demo:rest` starts it, so do the
 * benchmarks). Settings from the environment:
 *   STORE_PORT (else PORT, else 4010; 0 = any free port), STORE_HOST (127.0.0.1)
 *   STORE_KEY_ID, STORE_API_SECRET      the API key clients sign with
 *   STORE_WEBHOOK_SECRET, STORE_WEBHOOK_URL   signed order webhooks (none sent without a URL)
 *   STORE_LATENCY_MS (0)                added to every API call
 *   STORE_CONTROLS=true                 serve /_control (faults, latency, call counts)
 *   STORE_DATA_DIR (config/demo)
 *   STORE_PRICES_INCLUDE_TAX=true       its prices contain the tax (shown as included)
 * Prints one JSON line {"store": "<origin>"} when listening; SIGINT/SIGTERM stop it cleanly.
 */
import { resolve } from 'node:path';
import { createRestStore } from './server.js';

function required(name: string): string {
  const value = process.env[name];
  if (!value) {
    process.stderr.write(`reference store: ${name} is not set\n`);
    process.exit(1);
  }
  return value;
}

async function main(): Promise<void> {
  const env = process.env;
  const store = await createRestStore({
    dataDir: resolve(env.STORE_DATA_DIR ?? 'config/demo'),
    apiKey: { id: required('STORE_KEY_ID'), secret: required('STORE_API_SECRET') },
    webhookSecret: required('STORE_WEBHOOK_SECRET'),
    ...(env.STORE_WEBHOOK_URL && { webhookUrl: env.STORE_WEBHOOK_URL }),
    latencyMs: Number(env.STORE_LATENCY_MS ?? 0),
    controls: env.STORE_CONTROLS === 'true',
    pricesIncludeTax: env.STORE_PRICES_INCLUDE_TAX === 'true',
  });
  const origin = await store.listen(Number(env.STORE_PORT ?? env.PORT ?? 4010), env.STORE_HOST ?? '127.0.0.1');
  process.stdout.write(`${JSON.stringify({ store: origin })}\n`);
  const stop = async () => {
    await store.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  process.stderr.write(`reference store failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
