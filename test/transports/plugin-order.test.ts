/**
 * The cross-cutting plugins name what they need (fastify-plugin `dependencies`): registered before
 * the request hooks that set `req.tenant`, they fail the start instead of silently doing nothing.
 */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { rateLimits } from '../../src/transports/rate-limiter.js';
import { signedAnswers } from '../../src/transports/signed-answers.js';
import { MemoryStore } from '../../src/state/memory-store.js';
import { Metrics } from '../../src/observability/metrics.js';

describe('plugin order', () => {
  it('answer signing registered without the request hooks fails the start, naming them', async () => {
    const app = Fastify();
    await expect(app.register(signedAnswers, { now: Date.now }).ready()).rejects.toThrow(/request-hooks/);
  });

  it('rate limits registered without the request hooks fail the start, naming them', async () => {
    const app = Fastify();
    await expect(app.register(rateLimits, { store: new MemoryStore(), metrics: new Metrics() }).ready()).rejects.toThrow(/request-hooks/);
  });
});
