/** REST rendering of transport errors (spec part 1 §7 layer 1): status + {code, content}. */
import type { FastifyError, FastifyInstance } from 'fastify';
import { toProtocolError } from '../error-mapping.js';

export function registerRestErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, req, reply) => {
    const mapped = toProtocolError(error, req.log);
    if (mapped.extra.retryAfterSeconds !== undefined) reply.header('retry-after', String(mapped.extra.retryAfterSeconds));
    for (const [name, value] of Object.entries(mapped.extra.headers ?? {})) reply.header(name, value);
    return reply.code(mapped.status).type('application/json; charset=utf-8').send(mapped.toBody());
  });
  app.setNotFoundHandler((req, reply) =>
    reply.code(404).send({ code: 'not_found', content: `no endpoint ${req.method} ${req.url.split('?')[0]}` }),
  );
}
