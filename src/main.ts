/**
 * Starts the gateway: settings from the environment, tenants from CONFIG_DIR, HTTPS when a
 * certificate is configured. SIGHUP reloads the tenant files (and the certificate); SIGTERM
 * stops accepting connections, finishes in-flight requests, then closes adapters and Redis.
 */
import { createServer, type AddressInfo } from 'node:net';
import type { Server as TlsServer } from 'node:tls';
import type { FastifyInstance } from 'fastify';
import { listenOrigin } from './config/base-url.js';
import { ConfigError } from '../adapters/kit/config-error.js';
import { settingsFromEnv, type GatewaySettings } from './config/env.js';
import { GatewaySecret } from './config/gateway-secret.js';
import { Metrics } from './observability/metrics.js';
import { buildServer } from './server.js';
import { openStore } from './state/create-store.js';
import { loadTenants } from './tenancy/load.js';
import { TenantReloader, watchTenantFiles } from './tenancy/reload.js';
import type { TenantDeps } from './tenancy/tenant.js';
import { httpsOptions } from './transports/tls.js';

/** PORT=0: a free port, chosen before the tenants are built so their base URLs can name it. */
async function listeningPort(host: string, port: number): Promise<number> {
  if (port !== 0) return port;
  const probe = createServer();
  await new Promise<void>((resolve, reject) => probe.once('error', reject).listen(0, host, resolve));
  const { port: free } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return free;
}

/**
 * The operator listener. A port the operator chose (ADMIN_PORT) must bind, as PORT must; the
 * default one may be held by another gateway on a developer's machine, which costs this one its
 * metrics (logged as an error), not its service.
 */
async function listenAdmin(app: FastifyInstance, settings: GatewaySettings): Promise<void> {
  try {
    const address = await app.admin.listen({ port: settings.adminPort, host: settings.adminHost });
    app.log.info({ metrics: `${address}/metrics` }, `admin listener (metrics) at ${address}`);
  } catch (error) {
    if (process.env.ADMIN_PORT || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    app.log.error(`admin listener not started: port ${settings.adminPort} is in use; set ADMIN_PORT to serve metrics`);
  }
}

async function main(): Promise<void> {
  const settings = settingsFromEnv();
  const port = await listeningPort(settings.host, settings.port);
  const https = settings.tls && httpsOptions(settings.tls);
  const metrics = new Metrics();
  const store = await openStore(settings);
  const deps: TenantDeps = {
    env: process.env,
    now: Date.now,
    store,
    observeBackend: (tenant, adapter) => metrics.backendObserver(tenant, adapter),
    baseUrl: settings.baseUrl ?? listenOrigin(settings.host, port, settings.tls !== undefined),
  };
  const tenants = await loadTenants(settings.configDir, deps);
  const secret = GatewaySecret.from(settings.gatewaySecret);
  const app = await buildServer({
    settings,
    tenants,
    store,
    secret,
    metrics,
    trustProxy: settings.trustProxy,
    operators: settings.operators,
    ...(https && { https }),
  });
  if (secret.ephemeral && settings.store !== 'memory') {
    app.log.warn(
      'GATEWAY_SECRET is not set: each replica signs with its own random key, so a catalog cursor or an order page link ' +
        'from one replica is refused by another; set the same GATEWAY_SECRET on every replica',
    );
  }

  const reloader = new TenantReloader(app.tenants, settings.configDir, deps, app.log, {
    drainMs: settings.shutdownGraceMs,
    onReload: (outcome, reason) => metrics.configReload(outcome, reason),
  });
  let stopping = false;
  const reload = () => {
    if (stopping) return; // keep the listener: without one, SIGHUP would end the process
    if (settings.tls) {
      try {
        (app.server as unknown as TlsServer).setSecureContext(httpsOptions(settings.tls));
      } catch (error) {
        app.log.error({ reason: (error as Error).message }, 'TLS certificate reload refused; the previous certificate keeps serving');
      }
    }
    void reloader.reload();
  };
  const watcher = settings.configWatch ? watchTenantFiles(settings.configDir, () => void reloader.reload(), app.log) : undefined;

  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: no new connections, finishing in-flight requests');
    const force = setTimeout(() => {
      app.log.error('shutdown grace period over; exiting with requests still in flight');
      process.exit(1);
    }, settings.shutdownGraceMs).unref();
    watcher?.close();
    await app.close();
    await reloader.settle();
    await Promise.allSettled([store.close(), app.tenants.registry.close()]);
    clearTimeout(force);
    app.log.info('stopped');
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
  process.on('SIGHUP', reload);

  await app.listen({ port, host: settings.host });
  await listenAdmin(app, settings);
  for (const tenant of app.tenants.registry.tenants) {
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
