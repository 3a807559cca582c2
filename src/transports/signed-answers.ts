/**
 * The Fastify binding of the answer-signing step (pipeline/answer-signing.ts): every response
 * of a request a transport took (REST, MCP, A2A, the embedded page, any route that sets `req.transport`), errors
 * included, is signed over the exact bytes sent, in one onSend hook instead of per-route code.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { signAnswer } from '../pipeline/answer-signing.js';

/** What Fastify itself sends a string body as when no type was set. */
const DEFAULT_TYPE = 'text/plain; charset=utf-8';

async function addAnswerSigning(app: FastifyInstance, { now }: { now: () => number }): Promise<void> {
  app.addHook('onSend', (req, reply, payload, done) => {
    const { tenant } = req;
    const body = payload ?? undefined;
    // Only operation responses with bytes in hand; streams are not signed.
    if (
      tenant?.security.signResponses &&
      req.transport !== '' &&
      (body === undefined || typeof body === 'string' || Buffer.isBuffer(body))
    ) {
      let contentType = reply.getHeader('content-type');
      if (body !== undefined && body.length > 0 && contentType === undefined) reply.header('content-type', (contentType = DEFAULT_TYPE));
      const headers = signAnswer(
        tenant,
        {
          status: reply.statusCode,
          ...(contentType !== undefined && { contentType: String(contentType) }),
          body,
        },
        now,
      );
      if (headers) reply.headers(headers);
    }
    done(null, payload);
  });
}

/** Through fastify-plugin, so the hook reaches every transport registered after it; it reads the tenant the request hooks set. */
export const signedAnswers = fp(addAnswerSigning, {
  name: 'signed-answers',
  dependencies: ['request-hooks'],
  decorators: { request: ['tenant', 'transport'] },
});
