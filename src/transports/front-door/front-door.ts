/**
 * The gateway at the merchant's own origin (tenant file `front_door`): the gateway's own routes
 * (discovery, REST, MCP, A2A, embedded pages, webhooks, order pages, health) answer as everywhere, and
 * every other path, any method, is passed through to the store's site by @fastify/http-proxy:
 * bodies streamed both ways, Host and X-Forwarded-* set (upstream-request.ts), redirects and
 * cookies kept on the merchant's domain (upstream-response.ts), a store that is down or slow
 * answered with an HTML page (error-page.ts). The catch-all is a wildcard route, so Fastify's
 * router prefers every gateway route over it; tenants without `front_door` get the gateway's 404
 * from it, as before. Passed-through requests count against no rate limit.
 */
import httpProxy from '@fastify/http-proxy';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { NOT_LIMITED } from '../rate-limiter.js';
import { failureOf, sendErrorPage } from './error-page.js';
import { storefrontOf } from './storefront.js';
import { isLoop, upstreamRequestHeaders } from './upstream-request.js';
import { storefrontResponseHeaders } from './upstream-response.js';
import fp from 'fastify-plugin';

/** Every method a website answers; TRACE is left out (it would echo the buyer's cookies back). */
const PASSED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'QUERY'];

/** A store that takes this long to accept a connection is down. */
const CONNECT_TIMEOUT_MS = 10_000;

const addFrontDoor: FastifyPluginAsync = async (scope) => {
  // Passed-through bodies must reach the store as the stream they arrive as; the gateway's JSON
  // parser and Fastify's text parser would read them whole, under the protocol's body limit.
  // http-proxy then adds its own pass-through parsers for every content type.
  scope.removeAllContentTypeParsers();
  await scope.register(httpProxy, {
    upstream: '', // per tenant: replyOptions.getUpstream
    httpMethods: PASSED_METHODS,
    config: NOT_LIMITED,
    internalRewriteLocationHeader: false, // done against the store's origin in storefrontResponseHeaders
    disableRequestLogging: true, // the gateway's own access line covers each request
    destroyAgent: true, // close the store's sockets with the server
    // reply-from turns certificate checks off unless told otherwise: a store's site is verified like any backend.
    undici: { connect: { rejectUnauthorized: true, timeout: CONNECT_TIMEOUT_MS } },
    preHandler: (req, reply, done) => {
      if (!storefrontOf(req.tenant)) return void reply.callNotFound(); // no front door: today's 404
      if (isLoop(req)) return sendErrorPage(reply, 508);
      done();
    },
    // reply-from types its hooks for HTTP/2 servers too; the gateway serves HTTP/1.1.
    replyOptions: {
      getUpstream: (req) => storefrontOf(req.tenant)?.origin ?? '',
      rewriteRequestHeaders: (req, headers) => upstreamRequestHeaders(req as FastifyRequest, headers, storefrontOf(req.tenant)!),
      rewriteHeaders: (headers, req) => storefrontResponseHeaders(headers, req as FastifyRequest, storefrontOf(req!.tenant)!),
      onError: (reply, { error }) => sendErrorPage(reply as FastifyReply, failureOf(error)),
      // The store's own 503 (maintenance) is its answer to show, not a reason to ask again.
      retryDelay: () => null,
    },
    handler: (req, reply, dest, options) => reply.from(dest, { ...options, timeout: storefrontOf(req.tenant)!.timeoutMs }),
  });
};

/** Tenants without `front_door` get the rest-errors 404 (callNotFound). */
export const frontDoor = fp(addFrontDoor, {
  name: 'front-door',
  encapsulate: true,
  dependencies: ['request-hooks', 'rest-errors'],
  decorators: { request: ['tenant'] },
});
