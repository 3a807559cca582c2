/**
 * Builds the gateway from its parts without listening, so tests run it in-process.
 * `buildServer`, read top to bottom, is the request path, every plugin registered in its order:
 *   tenant routing -> JSON body -> transport (discovery | REST | MCP | A2A | embedded page) -> pipeline -> adapter
 * The steps above it make what it registers: the parts (gatewayParts), the app with its logger and
 * operator listener (createApp), the pipeline (createPipeline).
 */
import type { ServerOptions as HttpsOptions } from 'node:https';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { pino, type DestinationStream } from 'pino';
import type { GatewaySettings, TrustProxy } from './config/env.js';
import { GatewaySecret } from './config/gateway-secret.js';
import type { OperatorToken } from './config/operator-tokens.js';
import { accessLog, type AccessLog } from './observability/access-log.js';
import { bufferedLog } from './observability/log-destination.js';
import { requestLogger } from './observability/request-logger.js';
import { Metrics } from './observability/metrics.js';
import { Idempotency } from './pipeline/idempotency.js';
import type { OperationDefinition } from './capabilities/operation.js';
import type { RateLimiter } from './pipeline/call-budgets.js';
import { Pipeline } from './pipeline/pipeline.js';
import { operations as allOperations } from './pipeline/table.js';
import { ProfileFetcher } from './protocol/profile-fetcher.js';
import type { StateStore } from './state/store.js';
import type { TenantRegistry } from './tenancy/registry.js';
import { discoveryTransport } from './transports/discovery.js';
import { frontDoor } from './transports/front-door/front-door.js';
import { buildAdminServer } from './transports/admin.js';
import { healthRoutes } from './transports/health.js';
import { jsonBody } from './transports/json-body.js';
import { mcpTransport } from './transports/mcp/mcp-transport.js';
import { a2aTransport } from './transports/a2a/a2a-transport.js';
import { openApiRoutes } from './transports/openapi/openapi-routes.js';
import { orderPages } from './transports/pages/order-page.js';
import { demoStorePages } from './transports/pages/demo-store.js';
import { rateLimits } from './transports/rate-limiter.js';
import { requestIdFor, TenantRouting } from './transports/request-context.js';
import { requestHooks } from './transports/request-hooks.js';
import { frameworkErrorHandler, MAX_PARAM_LENGTH, restErrors } from './transports/rest/error-handler.js';
import { restTransport } from './transports/rest/rest-transport.js';
import { signedAnswers } from './transports/signed-answers.js';
import { embeddedTransport } from './embedded/transport/embedded-transport.js';
import { EMBEDDED_PATH } from './embedded/session/session-binding.js';
import { completionRecovery } from './workers/completion-recovery.js';
import { backendWebhooks } from './webhooks/inbound.js';
import { orderWebhooks, type WebhookSettings } from './workers/order-webhooks.js';
import { orderSimulation } from './webhooks/simulation-route.js';
import { oauthRoutes } from './transports/identity/oauth-routes.js';

export interface ServerOptions {
  settings: Pick<GatewaySettings, 'bodyLimitBytes' | 'logLevel'>;
  tenants: TenantRegistry;
  store: StateStore;
  operations?: readonly OperationDefinition[];
  profiles?: ProfileFetcher;
  now?: () => number;
  /** Signs the gateway's opaque tokens; a random per-process secret when absent. */
  secret?: GatewaySecret;
  /** Where log lines go (tests capture them); stdout by default. */
  logStream?: DestinationStream;
  /** Created before the tenants so their adapters report to it; one per app by default. */
  metrics?: Metrics;
  /** Serve HTTPS with these options (see transports/tls.ts). */
  https?: HttpsOptions;
  /** Which proxies' X-Forwarded-* headers to believe; none by default. */
  trustProxy?: TrustProxy;
  /** Order webhook delivery (worker concurrency, polling, timeout, retry schedule). */
  webhooks?: Partial<WebhookSettings>;
  /** How often an idle replica looks for due background jobs (completions, order polls); 1 s by default. */
  jobPollMs?: number;
  /** Who may act in the operator console (OPERATOR_TOKEN); none by default: it only shows. */
  operators?: readonly OperatorToken[];
  /** Where the embedded page's built files are; dist/embedded/page by default. */
  embeddedAssetsDir?: string;
}

/**
 * Never logged, wherever they appear, at every level. `rawPacket` is what Node's HTTP parser had
 * read of a request it refused (Fastify logs it with the client error at trace): its bytes hold
 * the request's headers, credentials and cookies among them, before any header redaction applies.
 */
const REDACT = [
  'err.rawPacket',
  '*.err.rawPacket',
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.signature',
  'req.headers.cookie',
  'req.headers["ep-auth"]',
  '*.credential',
  '*.token',
  '*.password',
  '*.secret',
];

/** What the app is built from: the options with their defaults, and the parts every plugin shares. */
interface GatewayParts {
  operations: readonly OperationDefinition[];
  store: StateStore;
  now: () => number;
  secret: GatewaySecret;
  metrics: Metrics;
  routing: TenantRouting;
  jobPollMs: number;
}

function gatewayParts(options: ServerOptions): GatewayParts {
  return {
    operations: options.operations ?? allOperations,
    store: options.store,
    now: options.now ?? Date.now,
    secret: options.secret ?? GatewaySecret.from(undefined),
    metrics: options.metrics ?? new Metrics(),
    routing: new TenantRouting(options.tenants),
    jobPollMs: options.jobPollMs ?? 1000,
  };
}

/** The Fastify instance: its logger (the per-request line apart), tenant routing, and the operator listener beside it. */
async function createApp(
  options: ServerOptions,
  { metrics, routing, store, now }: GatewayParts,
): Promise<{ app: FastifyInstance; access: AccessLog }> {
  const buffered = options.logStream ? undefined : bufferedLog();
  const destination = options.logStream ?? buffered!;
  const level = options.settings.logLevel;
  const logger = pino({ level, redact: { paths: REDACT, censor: '[redacted]' } }, destination);
  const app = Fastify({
    loggerInstance: logger,
    childLoggerFactory: requestLogger,
    // One log line per request, written by the request hooks (transports/request-hooks.ts).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: options.settings.bodyLimitBytes,
    // Long ids reach the operation, which answers 400 with the limit instead of a bare 414.
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: frameworkErrorHandler,
    rewriteUrl: routing.rewriteUrl,
    genReqId: requestIdFor,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    trustProxy: options.trustProxy ?? false,
    ...(options.https && { https: options.https }),
  }) as unknown as FastifyInstance; // the HTTPS instance serves the same routes and hooks
  if (buffered) {
    app.addHook('onClose', (_app, done) => {
      buffered.stop();
      done();
    });
  }
  app.decorate('metrics', metrics);
  metrics.watchTenants(() => routing.registry.tenants); // each scrape reads their circuits
  // Operator endpoints on a listener of their own (main.ts binds it to ADMIN_HOST:ADMIN_PORT).
  const admin = await buildAdminServer(metrics, { store, routing }, { operators: options.operators ?? [], log: app.log, now });
  app.decorate('admin', admin);
  app.addHook('onClose', async () => admin.close());
  app.decorate('tenants', routing);
  warnOfEphemeralKeys(app, options.tenants);
  // The per-request line carries only the fields the request hooks name, so it skips the redaction walk.
  return { app, access: accessLog(level, destination) };
}

function warnOfEphemeralKeys(app: FastifyInstance, tenants: TenantRegistry): void {
  for (const tenant of tenants.tenants) {
    if (!tenant.security.keyring.ephemeral) continue;
    app.log.warn(
      { tenant: tenant.id, kid: tenant.security.keyring.active?.kid },
      'signing with an ephemeral key generated at start-up: signatures stop verifying after a restart and differ between replicas',
    );
  }
}

function createPipeline(options: ServerOptions, { operations, store, secret, now, metrics }: GatewayParts, rateLimiter: RateLimiter) {
  const profiles = options.profiles ?? new ProfileFetcher();
  metrics.profileCache(profiles);
  const idempotency = new Idempotency(store);
  return new Pipeline(operations, { store, profiles, idempotency, secret, now, observeIdempotency: metrics.idempotency, rateLimiter });
}

export async function buildServer(options: ServerOptions): Promise<FastifyInstance> {
  const parts = gatewayParts(options);
  const { operations, store, now, secret, metrics, routing, jobPollMs } = parts;
  const { app, access } = await createApp(options, parts);

  // Cross-cutting (fastify-plugin): they reach every transport registered below, which names them as its dependencies.
  await app.register(requestHooks, { routing, metrics, accessLog: access });
  await app.register(jsonBody);
  await app.register(restErrors);
  // Per request for routes outside the pipeline; the pipeline counts operation calls with app.rateLimiter.
  await app.register(rateLimits, { store, metrics });
  const pipeline = createPipeline(options, parts, app.rateLimiter);
  // Signed answers: an onSend hook (fastify-plugin), so it reaches every transport registered below.
  await app.register(signedAnswers, { now });

  // Transports: encapsulated plugins, each with its own routes (and parsers, where it needs others).
  await app.register(discoveryTransport);
  await app.register(restTransport, { operations, pipeline });
  await app.register(mcpTransport, { operations, pipeline });
  await app.register(a2aTransport, { operations, pipeline, store });
  await app.register(openApiRoutes, { operations }); // the REST binding described: /openapi.json, /docs
  const assets = options.embeddedAssetsDir && { assetsDir: options.embeddedAssetsDir };
  await app.register(embeddedTransport, { prefix: EMBEDDED_PATH, operations, pipeline, secret, now, store, ...assets });
  await app.register(orderPages, { secret });
  await app.register(demoStorePages); // the demo store's own pages and images, where its answers link
  await app.register(backendWebhooks, { store, secret, now });
  await app.register(orderSimulation, { store, secret, now });

  // Background workers (fastify-plugin): started when the app is ready, stopped when it closes.
  const settings = options.webhooks && { settings: options.webhooks };
  await app.register(orderWebhooks, { store, secret, now, metrics, routing, jobPollMs, ...settings });
  const tenants = () => routing.registry.tenants;
  await app.register(completionRecovery, { store, secret, now, metrics, tenants, pollMs: jobPollMs });

  await app.register(healthRoutes, { store });
  await app.register(oauthRoutes); // identity linking: each tenant's authorization server and login page
  await app.register(frontDoor); // every other path: the store's own site, for tenants with `front_door`
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    tenants: TenantRouting;
    metrics: Metrics;
    /** The operator listener (metrics, readiness detail), never the tenants' port. */
    admin: FastifyInstance;
  }
}
