/**
 * Every plugin names what it needs (fastify-plugin `dependencies` and `decorators`): registered
 * without the request hooks that decorate the request with its tenant, a transport fails the start
 * with Fastify's own error instead of answering every request 404 (`req.tenant` never set).
 */
import Fastify, { type FastifyPluginAsync } from 'fastify';
import { describe, expect, it } from 'vitest';
import { rateLimits } from '../../src/transports/rate-limiter.js';
import { signedAnswers } from '../../src/transports/signed-answers.js';
import { MemoryStore } from '../../src/state/memory-store.js';
import { Metrics } from '../../src/observability/metrics.js';
import { jsonBody } from '../../src/transports/json-body.js';
import { restErrors } from '../../src/transports/rest/error-handler.js';
import { discoveryTransport } from '../../src/transports/discovery.js';
import { restTransport } from '../../src/transports/rest/rest-transport.js';
import { mcpTransport } from '../../src/transports/mcp/mcp-transport.js';
import { a2aTransport } from '../../src/transports/a2a/a2a-transport.js';
import { openApiRoutes } from '../../src/transports/openapi/openapi-routes.js';
import { embeddedTransport } from '../../src/embedded/transport/embedded-transport.js';
import { orderPages } from '../../src/transports/pages/order-page.js';
import { demoStorePages } from '../../src/transports/pages/demo-store.js';
import { backendWebhooks } from '../../src/webhooks/inbound.js';
import { orderSimulation } from '../../src/webhooks/simulation-route.js';
import { frontDoor } from '../../src/transports/front-door/front-door.js';
import { oauthRoutes } from '../../src/transports/identity/oauth-routes.js';
import { requestHooks } from '../../src/transports/request-hooks.js';
import { TenantRouting } from '../../src/transports/request-context.js';
import { TenantRegistry } from '../../src/tenancy/registry.js';

/** Fastify's errors for a plugin whose declared decorator or dependency is missing. */
const MISSING = ['FST_ERR_PLUGIN_NOT_PRESENT_IN_INSTANCE', 'FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED'];

/** The start's error; the plugins' options are never read, since Fastify refuses them before they run. */
async function bootError(...plugins: FastifyPluginAsync[]): Promise<{ code?: string; message: string } | undefined> {
  const app = Fastify();
  for (const plugin of plugins) void app.register(plugin as FastifyPluginAsync<never>, {} as never);
  try {
    await app.ready();
    return undefined;
  } catch (error) {
    return error as { code?: string; message: string };
  } finally {
    await app.close().catch(() => undefined);
  }
}

const TRANSPORTS = {
  discovery: discoveryTransport,
  'rest-transport': restTransport,
  'mcp-transport': mcpTransport,
  'a2a-transport': a2aTransport,
  'openapi-routes': openApiRoutes,
  'embedded-transport': embeddedTransport,
  'order-pages': orderPages,
  'demo-store-pages': demoStorePages,
  'backend-webhooks': backendWebhooks,
  'order-simulation': orderSimulation,
  'front-door': frontDoor,
  'oauth-routes': oauthRoutes,
} as unknown as Record<string, FastifyPluginAsync>;

describe('plugin order', () => {
  it('answer signing registered without the request hooks fails the start, naming what it needs', async () => {
    const app = Fastify();
    await expect(app.register(signedAnswers, { now: Date.now }).ready()).rejects.toMatchObject({ code: expect.toBeOneOf(MISSING) });
  });

  it('rate limits registered without the request hooks fail the start, naming what they need', async () => {
    const app = Fastify();
    await expect(app.register(rateLimits, { store: new MemoryStore(), metrics: new Metrics() }).ready()).rejects.toMatchObject({
      code: expect.toBeOneOf(MISSING),
    });
  });

  for (const [name, transport] of Object.entries(TRANSPORTS)) {
    it(`${name} registered without the request hooks fails the start with Fastify's error, naming itself`, async () => {
      // Everything else a transport may need is there: only the hooks that decorate the request are missing.
      const error = await bootError(jsonBody, restErrors, transport);
      expect(error?.code).toBeOneOf(MISSING);
      expect(error?.message).toContain(name);
    });
  }

  it('the REST transport after the request hooks and the body parser, with its other dependencies, starts', async () => {
    const app = Fastify();
    const routing = new TenantRouting(new TenantRegistry([]));
    const metrics = new Metrics();
    await app.register(requestHooks, { routing, metrics, accessLog: () => {} });
    await app.register(jsonBody);
    await app.register(restErrors);
    await app.register(rateLimits, { store: new MemoryStore(), metrics });
    await app.register(restTransport, { operations: [], pipeline: undefined as never });
    await expect(app.ready()).resolves.toBe(app);
    await app.close();
  });
});
