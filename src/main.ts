/** Starts the gateway: settings from the environment, tenants from CONFIG_DIR, graceful stop. */
import { ConfigError } from './config/config-error.js';
import { settingsFromEnv } from './config/env.js';
import { GatewaySecret } from './config/gateway-secret.js';
import { buildServer } from './server.js';
import { createStore } from './state/create-store.js';
import { loadTenants } from './tenancy/load.js';

async function main(): Promise<void> {
  const settings = settingsFromEnv();
  const store = await createStore(settings.store);
  const tenants = await loadTenants(settings.configDir, { env: process.env, now: Date.now, store });
  const secret = GatewaySecret.from(settings.gatewaySecret);
  const app = await buildServer({ settings, tenants, store, secret });
  if (secret.ephemeral && settings.store !== 'memory') {
    app.log.warn('GATEWAY_SECRET is not set: each replica signs with its own random key, so a catalog cursor from one replica is refused by another; set the same GATEWAY_SECRET on every replica');
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: no new connections, finishing in-flight requests');
    const force = setTimeout(() => {
      app.log.error('shutdown grace period over; exiting with requests still in flight');
      process.exit(1);
    }, settings.shutdownGraceMs).unref();
    await app.close();
    await Promise.allSettled([store.close(), tenants.close()]);
    clearTimeout(force);
    app.log.info('stopped');
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: settings.port, host: settings.host });
  for (const tenant of tenants.tenants) {
    app.log.info({ tenant: tenant.id, profile: `${tenant.baseUrl}/.well-known/proto` }, `serving ${tenant.name}`);
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`configuration error: ${error.message}\n`);
  } else {
    process.stderr.write(`failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
  process.exit(1);
});
