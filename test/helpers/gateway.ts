/**
 * Builds a gateway in-process for integration tests, with a platform profile served on
 * loopback and every request header a well-behaved platform sends.
 */
import type { TrustProxy } from '../../src/config/env.js';
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Adapter } from '../../adapters/contract.js';
import type { GatewaySecret } from '../../src/config/gateway-secret.js';
import type { TenantConfig } from '../../src/config/tenant-schema.js';
import type { Keyring } from '../../src/security/keyring.js';
import type { OperationDefinition } from '../../src/capabilities/operation.js';
import type { ProfileFetcher } from '../../src/protocol/profile-fetcher.js';
import { buildServer } from '../../src/server.js';
import { Metrics } from '../../src/observability/metrics.js';
import type { OperatorToken } from '../../src/config/operator-tokens.js';
import { MemoryStore } from '../../src/state/memory-store.js';
import type { StateStore } from '../../src/state/store.js';
import { TenantRegistry } from '../../src/tenancy/registry.js';
import { assembleTenant, type AssemblyOptions } from '../../src/tenancy/tenant.js';
import type { WebhookSettings } from '../../src/workers/order-webhooks.js';
import { startPlatform, type PlatformServer } from './platform.js';
import { stubAdapter } from './stub-adapter.js';

export const baseTenantConfig: TenantConfig = {
  id: 'shop',
  name: 'Test Shop',
  base_url: 'https://shop.example',
  adapter: { type: 'memory', settings: {} },
  capabilities: {
    'dev.proto.shopping.catalog.search': {},
    'dev.proto.shopping.catalog.lookup': {},
    'dev.proto.shopping.cart': {},
    'dev.proto.shopping.checkout': {},
    'dev.proto.shopping.discount': {},
    'dev.proto.shopping.fulfillment': {},
    'dev.proto.shopping.order': {},
  },
  payment_handlers: [{ id: 'sandbox', name: 'dev.proto.payments.sandbox', type: 'sandbox', instruments: ['card'] }],
  policies: { allow_loopback_profiles: true },
};

export interface TestGateway {
  app: FastifyInstance;
  platform: PlatformServer;
  store: StateStore;
  /** Captured log lines, parsed. */
  logs: Array<Record<string, unknown>>;
  rawLogs: string[];
  /** Headers of a well-behaved REST call; override or drop (undefined) any of them. */
  headers(overrides?: Record<string, string | undefined>): Record<string, string>;
  /** MCP `meta` for this platform. */
  meta(extra?: Record<string, unknown>): Record<string, unknown>;
  close: () => Promise<void>;
}

export interface TestGatewayOptions {
  store?: StateStore;
  operations?: readonly OperationDefinition[];
  tenant?: Partial<TenantConfig>;
  adapter?: Adapter;
  now?: () => number;
  /** Reuse a running platform (same profile URL, e.g. across a gateway restart); not closed by close(). */
  platform?: PlatformServer;
  /** Replicas sharing one secret accept each other's signed tokens (cursors). */
  secret?: GatewaySecret;
  /** The profile fetcher (its limits); a default one when absent. */
  profiles?: ProfileFetcher;
  /** Default info. */
  logLevel?: string;
  /** The tenant's signing keys. */
  keyring?: Keyring;
  /** Adapter extras (the order simulator) and the resolved simulation secret. */
  assembly?: Pick<AssemblyOptions, 'extras' | 'simulationSecret' | 'identityDeps'>;
  webhooks?: Partial<WebhookSettings>;
  /** Where the embedded page's files are served from (a temporary directory). */
  embeddedAssetsDir?: string;
  /** OPERATOR_TOKEN: who may act in the operator console. */
  operators?: readonly OperatorToken[];
  /** TRUST_PROXY (default false): whose X-Forwarded-For names the client. */
  trustProxy?: TrustProxy;
}

export async function testGateway(options: TestGatewayOptions = {}): Promise<TestGateway> {
  const platform = options.platform ?? (await startPlatform());
  const store = options.store ?? new MemoryStore();
  const config = { ...baseTenantConfig, ...options.tenant };
  // The tenant reports its backend calls to the app's metrics, as main.ts wires it.
  const metrics = new Metrics(options.now);
  const tenant = assembleTenant({ config, file: 'test/tenant.yaml' }, options.adapter ?? stubAdapter(), {
    store,
    observe: metrics.backendObserver(config.id, config.adapter.type),
    ...options.assembly,
    ...(options.keyring && { keyring: options.keyring }),
  });
  const rawLogs: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      rawLogs.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const app = await buildServer({
    settings: { bodyLimitBytes: 65_536, logLevel: options.logLevel ?? 'info' },
    tenants: new TenantRegistry([tenant]),
    store,
    logStream,
    metrics,
    ...(options.operators && { operators: options.operators }),
    ...(options.operations && { operations: options.operations }),
    ...(options.now && { now: options.now }),
    ...(options.secret && { secret: options.secret }),
    ...(options.profiles && { profiles: options.profiles }),
    ...(options.webhooks && { webhooks: options.webhooks }),
    ...(options.embeddedAssetsDir && { embeddedAssetsDir: options.embeddedAssetsDir }),
    ...(options.trustProxy !== undefined && { trustProxy: options.trustProxy }),
    // Background jobs run when a test drains them (app.completions.drain()), never on a timer.
    jobPollMs: 3_600_000,
  });
  await app.ready();
  return {
    app,
    platform,
    store,
    rawLogs,
    get logs() {
      return rawLogs.map((line) => JSON.parse(line) as Record<string, unknown>);
    },
    headers(overrides = {}) {
      const headers: Record<string, string | undefined> = {
        'content-type': 'application/json',
        'proto-agent': platform.agent(),
        'request-id': randomUUID(),
        'idempotency-key': randomUUID(),
        ...overrides,
      };
      return Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => e[1] !== undefined));
    },
    meta(extra = {}) {
      return { 'proto-agent': { profile: platform.url() }, ...extra };
    },
    async close() {
      await app.close();
      if (!options.platform) await platform.close();
      if (!options.store) await store.close();
    },
  };
}
