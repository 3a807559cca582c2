/**
 * The WooCommerce simulator: a local HTTP server answering the REST API (`/wp-json/wc/v3`) and
 * the Store API (`/wp-json/wc/store/v1`) with the shapes WooCommerce returns, seeded with the
 * demo flower shop, enforcing REST API keys as WooCommerce does over plain HTTP (OAuth 1.0a, see
 * auth.ts) or, when told the site is behind HTTPS, basic auth; serving the order payment page;
 * sending signed webhooks; failing on demand (faults.ts). `/?rest_route=/wc/v3/...` works too,
 * and with `permalinks: 'plain'` only that form does (the REST API needs pretty permalinks).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { RestAuthenticator, type ApiKey } from './auth.js';
import { CartSessions } from './carts.js';
import { clockMs, Faults, HOST_THROTTLE_PAGE, HTML_ERROR_PAGE, PHP_WARNING, type Call, type FaultSpec } from './faults.js';
import { OrderBook } from './orders.js';
import { orderPaymentResult, paymentPage, receivedPage } from './payment-page.js';
import { checkoutLinkPage, placeFromCheckout } from './storefront-checkout.js';
import { RestApi, type TrackingMode } from './rest-api.js';
import { Router, type Permission } from './router.js';
import { seedDemoStore, type SeedIndex } from './seed.js';
import { StoreApi } from './store-api.js';
import { registerBatch } from './store-batch.js';
import { StoreCart } from './store-cart.js';
import { StoreCheckout } from './store-checkout.js';
import { StoreSessions } from './store-session.js';
import { Nonces } from './nonces.js';
import type { LocalPickupSettings } from './model.js';
import type { WooStore } from './store.js';
import { WebhookDispatcher } from './webhooks.js';
import { noRoute, WpError } from './wp-error.js';
import { filterResponseFields } from './response-fields.js';
import { SimulatorControls } from './controls.js';

export interface WooSimulatorOptions {
  port?: number;
  host?: string;
  /** Folder of the demo store's data; default config/demo of this repository. */
  dataDir?: string;
  keys?: ApiKey[];
  /** The site believes it is served over HTTPS (a TLS proxy in front): basic auth is accepted. */
  https?: boolean;
  permalinks?: 'pretty' | 'plain';
  tracking?: TrackingMode;
  variationsEndpoint?: boolean;
  /** The WooCommerce release the store reports in system_status (default 10.2.0). */
  version?: string;
  /** A multiple-packages plugin splits the cart into one package per shipping class. */
  packagesByClass?: boolean;
  /**
   * The must-use plugin of docs/adapters/woocommerce.md is installed (default true): checkout links
   * and Store API checkouts keep the reference.
   */
  referenceSnippet?: boolean;
  /** woocommerce_prices_include_tax (default false: prices entered without tax). */
  pricesIncludeTax?: boolean;
  /** woocommerce_tax_display_cart (default 'excl'). */
  taxDisplayCart?: 'excl' | 'incl';
  /** The site's time zone: an IANA name (timezone_string) or "-05:00" (gmt_offset); default America/New_York. */
  timezone?: string;
  /** woocommerce_hold_stock_minutes (default 60). */
  holdStockMinutes?: number;
  /** The checkout block's Local Pickup: its locations (enabled when given), title and cost. */
  localPickup?: Partial<LocalPickupSettings>;
  /** WordPress's `nonce_life` (default one day). */
  nonceLifeSeconds?: number;
  now?: () => number;
}

export interface WooSimulator {
  /** Base URL of the store (its home URL), e.g. http://127.0.0.1:40123 */
  url: string;
  store: WooStore;
  index: SeedIndex;
  controls: SimulatorControls;
  close(): Promise<void>;
}

export const DEFAULT_KEY: ApiKey = {
  consumerKey: 'ck_5f0d0a6c2b1e4f7a9c3d8e2b6a4f1c0d9e8b7a6c',
  consumerSecret: 'cs_9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b',
  permissions: 'read_write',
};

const NOT_PERMITTED: Record<string, [string, string]> = {
  GET: ['woocommerce_rest_cannot_view', 'Sorry, you cannot list resources.'],
  POST: ['woocommerce_rest_cannot_create', 'Sorry, you are not allowed to create resources.'],
  PUT: ['woocommerce_rest_cannot_edit', 'Sorry, you are not allowed to edit this resource.'],
  PATCH: ['woocommerce_rest_cannot_edit', 'Sorry, you are not allowed to edit this resource.'],
  DELETE: ['woocommerce_rest_cannot_delete', 'Sorry, you are not allowed to delete this resource.'],
};

const notFoundPage = `<!DOCTYPE html><html lang="en-US"><head><meta charset="UTF-8">
<title>Page not found &ndash; Petal &amp; Stem</title></head>
<body class="error404"><h1 class="page-title">Oops! That page can&rsquo;t be found.</h1></body></html>`;

/** config/demo of this repository, from the sources (tests) or from dist/ (npm scripts). */
function demoDataDir(): string {
  const candidates = [resolve(import.meta.dirname, '../../config/demo'), resolve(import.meta.dirname, '../../../config/demo')];
  return candidates.find((dir) => existsSync(resolve(dir, 'catalog.yaml'))) ?? candidates[0]!;
}

function queryOf(request: FastifyRequest): Record<string, string> {
  const search = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
  return Object.fromEntries(new URLSearchParams(search));
}

export async function startWooSimulator(options: WooSimulatorOptions = {}): Promise<WooSimulator> {
  const now = options.now ?? Date.now;
  let home = 'http://127.0.0.1';
  const { store, index } = seedDemoStore({
    dataDir: options.dataDir ?? demoDataDir(),
    storefrontUrl: () => home,
    now: () => new Date(now()),
    settings: {
      ...(options.pricesIncludeTax !== undefined && { pricesIncludeTax: options.pricesIncludeTax }),
      ...(options.taxDisplayCart && { taxDisplayCart: options.taxDisplayCart }),
      ...(options.timezone && { timezone: options.timezone }),
      ...(options.holdStockMinutes !== undefined && { holdStockMinutes: options.holdStockMinutes }),
      ...(options.localPickup && {
        localPickup: { enabled: true, title: 'Pickup', cost: 0, locations: [], ...options.localPickup },
      }),
    },
  });
  const faults = new Faults();
  const webhooks = new WebhookDispatcher(store, () => Math.floor(now() / 1000));
  const orders = new OrderBook(store, webhooks);
  const sessions = new CartSessions(now);
  const settings = {
    tracking: options.tracking ?? 'fulfillments',
    variationsEndpoint: options.variationsEndpoint ?? true,
    packagesByClass: options.packagesByClass ?? false,
    permalinks: options.permalinks ?? 'pretty',
    referenceSnippet: options.referenceSnippet ?? true,
  };
  const router = new Router();
  new RestApi(store, orders, webhooks, {
    tracking: () => settings.tracking,
    variationsEndpoint: () => settings.variationsEndpoint,
    version: options.version ?? '10.2.0',
  }).register(router);
  const seconds = () => Math.floor(now() / 1000);
  const storeSessions = new StoreSessions(sessions, new Nonces(seconds, options.nonceLifeSeconds), seconds);
  const storeCart = new StoreCart(store, () => settings.packagesByClass);
  const storeApi = new StoreApi(store, storeCart, storeSessions);
  storeApi.register(router);
  new StoreCheckout(
    store,
    storeCart,
    orders,
    sessions,
    () => settings.packagesByClass,
    () => settings.referenceSnippet,
  ).register(storeApi, router);
  registerBatch(router, storeSessions, sessions);
  const auth = new RestAuthenticator(options.keys ?? [DEFAULT_KEY], { https: options.https ?? false, home: () => home, now });

  const app: FastifyInstance = Fastify({ logger: false, bodyLimit: 1_048_576, forceCloseConnections: true });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

  const sendError = (reply: FastifyReply, error: WpError) => {
    for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
    return reply.code(error.status).header('content-type', 'application/json; charset=UTF-8').send(JSON.stringify(error.body()));
  };

  async function restRoute(request: FastifyRequest, reply: FastifyReply, route: string, path: string): Promise<FastifyReply> {
    const fault = faults.take(route);
    if (fault) return injectFault(reply, fault, route);
    const query = queryOf(request);
    delete query.rest_route;
    const matched = router.match(request.method, route);
    if (!matched.route) return sendError(reply, noRoute());
    const raw = typeof request.body === 'string' ? request.body : '';
    let body: Record<string, unknown> = {};
    if (raw) {
      const type = String(request.headers['content-type'] ?? '');
      try {
        body = type.includes('application/x-www-form-urlencoded')
          ? Object.fromEntries(new URLSearchParams(raw))
          : (JSON.parse(raw) as Record<string, unknown>);
      } catch {
        return sendError(
          reply,
          new WpError(400, 'rest_invalid_json', 'Invalid JSON body passed.', { json_error_code: 4, json_error_message: 'Syntax error' }),
        );
      }
      if (!body || typeof body !== 'object' || Array.isArray(body)) body = {};
    }
    try {
      const permission: Permission = matched.route.permission;
      let key: ApiKey | undefined;
      if (permission !== 'public') {
        const outcome = auth.authenticate({
          method: request.method,
          path,
          query,
          ...(request.headers.authorization && { authorization: request.headers.authorization }),
        });
        if ('anonymous' in outcome) {
          const [code, message] = NOT_PERMITTED[request.method] ?? NOT_PERMITTED.GET!;
          throw new WpError(401, code, message);
        }
        key = outcome.key;
        if (permission === 'write' && key.permissions === 'read') {
          throw new WpError(401, 'woocommerce_rest_authentication_error', 'The API key provided does not have write permissions.');
        }
      } else {
        // The Store API reads parameters from the query string and the body alike.
        body = { ...Object.fromEntries(Object.entries(query).filter(([k]) => !k.startsWith('oauth_'))), ...body };
      }
      for (const k of Object.keys(query)) if (k.startsWith('oauth_') || k === 'consumer_key' || k === 'consumer_secret') delete query[k];
      const result = await matched.route.handler({
        method: request.method,
        route,
        params: matched.params,
        query,
        body,
        headers: request.headers,
        ...(key && { key }),
      });
      const status = result.status ?? 200;
      reply.code(status).header('content-type', 'application/json; charset=UTF-8');
      for (const [name, value] of Object.entries(result.headers ?? {})) reply.header(name, value);
      return reply.send(JSON.stringify(filterResponseFields(result.body, status, query._fields)));
    } catch (error) {
      if (error instanceof WpError) return sendError(reply, error);
      throw error;
    }
  }

  function injectFault(reply: FastifyReply, fault: FaultSpec, route: string): FastifyReply | Promise<FastifyReply> {
    const storeApi = route.startsWith('/wc/store/');
    switch (fault.kind) {
      case 'throttle': {
        const seconds = fault.retryAfter ?? 1;
        if (storeApi) {
          reply
            .header('RateLimit-Limit', '25')
            .header('RateLimit-Remaining', '0')
            .header('RateLimit-Reset', String(Math.floor(now() / 1000) + seconds));
          return reply
            .code(429)
            .header('RateLimit-Retry-After', String(seconds))
            .header('content-type', 'application/json; charset=UTF-8')
            .send(
              JSON.stringify({
                code: 'rate_limit_exceeded',
                message: `Too many requests. Please wait ${seconds} seconds before trying again.`,
                data: { status: 429 },
              }),
            );
        }
        return reply.code(429).header('Retry-After', String(seconds)).header('content-type', 'text/html').send(HOST_THROTTLE_PAGE);
      }
      case 'server_error':
        return reply
          .code(fault.status ?? 503)
          .header('content-type', 'text/html; charset=UTF-8')
          .send(HTML_ERROR_PAGE);
      case 'html':
        return reply.code(200).header('content-type', 'text/html; charset=UTF-8').send(HTML_ERROR_PAGE);
      case 'php_warning':
        return reply.code(200).header('content-type', 'application/json; charset=UTF-8').send(`${PHP_WARNING}{"code":"ok"}`);
      case 'truncated':
        return reply.code(200).header('content-type', 'application/json; charset=UTF-8').send('[{"id":101,"name":"Bouquet of');
      case 'hang':
        return new Promise<FastifyReply>(() => undefined);
    }
  }

  async function page(request: FastifyRequest, reply: FastifyReply, path: string): Promise<FastifyReply> {
    const html = (status: number, body: string) => reply.code(status).header('content-type', 'text/html; charset=UTF-8').send(body);
    if (/^\/checkout-link\/?$/.test(path)) return html(200, checkoutLinkPage(store, queryOf(request), settings.referenceSnippet));
    if (/^\/checkout\/?$/.test(path) && request.method === 'POST') {
      const form = Object.fromEntries(new URLSearchParams(typeof request.body === 'string' ? request.body : ''));
      const outcome = placeFromCheckout(store, orders, form, settings.referenceSnippet);
      return 'redirect' in outcome
        ? reply.redirect(outcome.redirect, 302)
        : html(200, `<ul class="woocommerce-error"><li>${outcome.error}</li></ul>`);
    }
    const match = /^\/checkout\/(order-pay|order-received)\/(\d+)\/?$/.exec(path);
    const order = match ? store.orders.get(Number(match[2])) : undefined;
    if (!match || !order || queryOf(request).key !== order.orderKey) return html(404, notFoundPage);
    if (match[1] === 'order-received') return html(200, receivedPage(order));
    if (request.method === 'GET') return html(200, paymentPage(store, order));
    if (!['pending', 'failed'].includes(order.status)) {
      return html(200, paymentPage(store, order, `This order’s status is “${order.status}”—it cannot be paid for.`));
    }
    const form = Object.fromEntries(new URLSearchParams(typeof request.body === 'string' ? request.body : ''));
    const gateway = store.gateways.find((g) => g.id === (form.payment_method ?? 'simulated_card')) ?? store.gateways[1]!;
    const result = orderPaymentResult(store, orders, order, gateway, [{ key: 'token', value: form.token ?? '' }]);
    if (result.declined) return html(200, paymentPage(store, order, result.declined));
    if (!result.redirectUrl) return html(200, paymentPage(store, order, 'Your payment is being processed.'));
    return reply.redirect(result.redirectUrl, 302);
  }

  const answered = new WeakMap<FastifyRequest, Call>();
  app.addHook('onResponse', (request, _reply, done) => {
    const call = answered.get(request);
    if (call) call.end = clockMs();
    done();
  });

  // Webhook deliveries a request causes are sent after its answer (webhooks.ts).
  app.all('*', (request, reply) => {
    const answered = new Promise((resolve) => reply.raw.once('close', resolve));
    return webhooks.duringRequest(answered, () => handle(request, reply));
  });

  async function handle(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const path = request.url.split('?')[0]!;
    const restRouteParam = queryOf(request).rest_route;
    const route = path.startsWith('/wp-json/')
      ? path.slice('/wp-json'.length).replace(/\/+$/, '')
      : (path === '/' || path === '') && restRouteParam
        ? restRouteParam.replace(/\/+$/, '')
        : undefined;
    if (route !== undefined) answered.set(request, faults.record(request.method, route));
    if (faults.latencyMs) await new Promise((r) => setTimeout(r, faults.latencyMs));
    if (route === undefined) return page(request, reply, path);
    if (path.startsWith('/wp-json/') && settings.permalinks === 'plain')
      return reply.code(404).header('content-type', 'text/html; charset=UTF-8').send(notFoundPage);
    return restRoute(request, reply, route, path.startsWith('/wp-json/') ? path : '/');
  }

  await app.listen({ port: options.port ?? 0, host: options.host ?? '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  home = `http://${options.host && options.host !== '0.0.0.0' ? options.host : '127.0.0.1'}:${port}`;
  const controls = new SimulatorControls({ store, index, orders, webhooks, sessions, faults, settings, now });
  return {
    get url() {
      return home;
    },
    store,
    index,
    controls,
    close: async () => {
      await app.close();
    },
  };
}
