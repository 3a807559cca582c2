/**
 * Signs every operation response, REST and MCP alike, over the exact bytes sent (spec part 2
 * §4.1 "Responses SHOULD be signed"): one Fastify onSend hook instead of per-route code.
 */
import type { FastifyInstance } from 'fastify';
import { signResponse } from './sign.js';

/** What Fastify itself sends a string body as when no type was set. */
const DEFAULT_TYPE = 'text/plain; charset=utf-8';

export function registerResponseSigning(app: FastifyInstance, now: () => number): void {
  app.addHook('onSend', (req, reply, payload, done) => {
    const security = req.tenant?.security;
    const key = security?.signResponses ? security.keyring.active : undefined;
    const body = payload ?? undefined;
    // Only operation responses (a transport took the request) with bytes in hand; streams are not signed.
    if (key && req.transport !== undefined && (body === undefined || typeof body === 'string' || Buffer.isBuffer(body))) {
      let contentType = reply.getHeader('content-type');
      if (body !== undefined && body.length > 0 && contentType === undefined) reply.header('content-type', (contentType = DEFAULT_TYPE));
      reply.headers(signResponse({ status: reply.statusCode, ...(contentType !== undefined && { contentType: String(contentType) }), body }, { key, now }));
    }
    done(null, payload);
  });
}
