/** REST rendering of transport errors (spec part 1 §7 layer 1): status + {code, content}. */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { bounded, ProtocolError } from '../../protocol/errors.js';
import { toProtocolError } from '../error-mapping.js';

/** Longest path parameter the router passes on: longer ids get frameworkErrorHandler's 400, shorter ones the operation's. */
export const MAX_PARAM_LENGTH = 1024;

/**
 * Fastify's `frameworkErrors`: URLs the router refuses before any route or hook runs (a path
 * segment over `maxParamLength`, malformed percent-encoding) answer in the protocol's shape,
 * without Fastify's default body that quotes the whole path.
 */
export function frameworkErrorHandler(error: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const content =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? `a path segment is longer than ${MAX_PARAM_LENGTH} characters (ids are 1-200)`
      : 'the request path is not a valid URL (malformed percent-encoding)';
  void sendProtocolError(reply.header('request-id', req.id), new ProtocolError('invalid_request', content));
}

/** A transport error as REST answers it: the catalogue's status, Retry-After and the error's headers, `{code, content}`. */
export function sendProtocolError(reply: FastifyReply, error: ProtocolError): FastifyReply {
  if (error.extra.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.extra.retryAfterSeconds));
  for (const [name, value] of Object.entries(error.extra.headers ?? {})) reply.header(name, value);
  return reply.code(error.status).type('application/json; charset=utf-8').send(error.toBody());
}

async function restErrorHandlers(app: FastifyInstance): Promise<void> {
  app.setErrorHandler((error: FastifyError, req, reply) => sendProtocolError(reply, toProtocolError(error, req.log)));
  app.setNotFoundHandler((req, reply) =>
    sendProtocolError(reply, new ProtocolError('not_found', `no endpoint ${req.method} ${bounded(req.url.split('?')[0]!, 200)}`)),
  );
}

/** Through fastify-plugin: every transport answers errors and unknown paths this way unless its scope sets its own (MCP). */
export const restErrors = fp(restErrorHandlers, { name: 'rest-errors' });
