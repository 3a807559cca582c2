/**
 * A local Shopify: the Storefront API (`/api/{version}/graphql.json`, private token header), the
 * Admin API (`/admin/api/{version}/graphql.json`, `X-Shopify-Access-Token`, tokens from the
 * client-credentials grant at `/admin/oauth/access_token`), the hosted checkout behind each
 * cart's `checkoutUrl`, and customer accounts' OpenID Connect endpoints (customer-accounts.ts).
 * Every document is validated against the real schema of its API version first and refused as
 * Shopify refuses it (HTTP 200 with `errors`); valid ones are executed with graphql-js over the
 * demo flower shop. Tests drive it in-process through the returned handle;
 * a small JSON control API under /_simulator does the same for other processes.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { dirname, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { execute, getDirectiveValues, getOperationAST, Kind } from 'graphql';
import { adminRoot, type AdminRequest } from './admin.js';
import { queryCost } from './query-cost.js';
import { Carts, type CartRecord } from './carts.js';
import { CustomerAccounts } from './customer-accounts.js';
import { checkoutPage, payCheckout, type PayInput } from './checkout.js';
import { DraftOrders } from './draft-orders.js';
import { Faults, type Fault } from './faults.js';
import { ArgumentError, gidId } from './graph.js';
import { OrderActionError, Orders, type OrderRecord } from './orders.js';
import type { CaptureMethod, PaymentMethod } from './payments.js';
import { checkDocument, schemaVersions, servedVersion, shopifySchema, type ShopifyApi } from './schemas.js';
import { DEFAULT_MARKETS, ShopData, type Market } from './shop-data.js';
import { carrierRatesWithoutDefer, hasDefer, sendDeferred } from './defer.js';
import { storefrontRoot } from './storefront.js';
import { Webhooks, topicEnum } from './webhooks.js';
import { text } from '../request-text.js';

export interface ShopifySimulatorOptions {
  port?: number;
  host?: string;
  /** The shop's permanent domain; requests are not checked against it (they arrive on localhost). */
  shopDomain?: string;
  /** Folder of the demo store files; default config/demo of this repository. */
  dataDir?: string;
  markets?: Market[];
  storefrontToken?: string;
  /** Static Admin token (older custom apps); tokens from the client-credentials grant work too. */
  adminToken?: string;
  clientId?: string;
  /** The app's client secret: authenticates the grant and signs webhooks. */
  clientSecret?: string;
  /** Lifetime of client-credentials tokens. */
  tokenTtlSeconds?: number;
  /** The shop's prices include tax (Settings > Taxes and duties); default false, tax is added. */
  taxesIncluded?: boolean;
  /** Settings > Payments > Payment capture method; default automatic (card orders are PAID, else AUTHORIZED). */
  paymentCapture?: CaptureMethod;
  /**
   * The shop quotes shipping with carrier-calculated rates (a carrier service): the Storefront cart
   * lists them only with `withCarrierRates: true` under `@defer`, and after a delivery address
   * changes its delivery groups stay pending (no options; selecting answers PENDING_DELIVERY_GROUPS)
   * for this many reads.
   */
  carrierRates?: { pendingReads: number };
  /** Delay before every API answer (benchmarks). */
  latencyMs?: number;
  /** Subscribes every order topic to this URL at start. */
  webhookUrl?: string;
  /** The shop's numeric id (customer accounts live under /authentication/{shop_id}). */
  shopId?: string;
  now?: () => number;
}

export interface ApiCall {
  api: ShopifyApi;
  version: string;
  operationName: string | null;
  /** Root fields of the operation, e.g. ["cartCreate"]. */
  fields: string[];
  buyerIp?: string;
}

const ORDER_TOPICS = [
  'orders/create',
  'orders/updated',
  'orders/cancelled',
  'fulfillments/create',
  'fulfillments/update',
  'refunds/create',
];

const DEFAULT_DATA_DIR = resolve(
  dirname(fileURLToPath(import.meta.url)).replace(/([\\/])dist([\\/])simulators/, '$1simulators'),
  '../../config/demo',
);
const MAX_BODY = 1 << 20;
const INVALID_TOKEN = { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' };

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`HTTP ${status}`);
  }
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reject(new HttpError(413, { errors: 'Request body too large' }));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => resolveBody(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** JSON or form-encoded body as an object; undefined when it is neither. */
function parseBody(req: IncomingMessage, raw: Buffer): Record<string, unknown> | undefined {
  const type = req.headers['content-type'] ?? '';
  const text = raw.toString('utf8');
  if (type.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(text));
  if (type.includes('application/graphql')) return { query: text };
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export class ShopifySimulator {
  readonly shop: ShopData;
  readonly carts: Carts;
  readonly orders: Orders;
  readonly drafts: DraftOrders;
  readonly webhooks: Webhooks;
  /** Customer accounts: the OpenID Connect provider of the Customer Account API. */
  readonly customerAccounts: CustomerAccounts;
  readonly faults = new Faults();
  readonly calls: ApiCall[] = [];
  readonly shopDomain: string;
  readonly credentials: { storefrontToken: string; adminToken: string; clientId: string; clientSecret: string };
  latencyMs: number;
  private readonly issued = new Map<string, number>();
  private readonly server = createServer((req, res) => void this.handle(req, res));
  private readonly sockets = new Set<Socket>();
  private readonly now: () => number;
  private origin = '';

  constructor(private readonly options: ShopifySimulatorOptions = {}) {
    this.now = options.now ?? Date.now;
    this.shopDomain = options.shopDomain ?? 'petal-and-stem.myshopify.com';
    this.credentials = {
      storefrontToken: options.storefrontToken ?? 'shpat_storefront_private_sim',
      adminToken: options.adminToken ?? 'shpat_admin_static_sim',
      clientId: options.clientId ?? 'sim-client-id',
      clientSecret: options.clientSecret ?? 'sim-client-secret',
    };
    this.latencyMs = options.latencyMs ?? 0;
    this.shop = ShopData.load(options.dataDir ?? DEFAULT_DATA_DIR, 'https://petal-and-stem.example', options.markets ?? DEFAULT_MARKETS);
    this.shop.taxesIncluded = options.taxesIncluded ?? false;
    this.shop.carrierRates = options.carrierRates ?? null;
    this.shop.paymentCapture = options.paymentCapture ?? 'automatic';
    this.webhooks = new Webhooks({
      secret: this.credentials.clientSecret,
      shopDomain: this.shopDomain,
      apiVersion: '2026-10',
      now: this.now,
    });
    this.carts = new Carts(this.shop, this.now);
    this.orders = new Orders(this.shop, this.webhooks, this.now);
    this.drafts = new DraftOrders(this.shop, this.orders, this.now);
    this.customerAccounts = new CustomerAccounts(options.shopId ?? '68817551382', this.shop.base, () => this.origin, this.now);
    if (options.webhookUrl) for (const topic of ORDER_TOPICS) this.webhooks.subscribe(topicEnum(topic), options.webhookUrl);
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  /** Listens (port 0 = any free port) and answers with the base URL. */
  async listen(): Promise<string> {
    // Built once per process, before the first call: building the Admin schema takes a while.
    for (const version of schemaVersions()) for (const api of ['storefront', 'admin'] as const) shopifySchema(api, version);
    await new Promise<void>((done) => this.server.listen(this.options.port ?? 0, this.options.host ?? '127.0.0.1', done));
    const { port } = this.server.address() as AddressInfo;
    this.origin = `http://${this.options.host ?? '127.0.0.1'}:${port}`;
    return this.origin;
  }

  get url(): string {
    return this.origin;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((done) => this.server.close(() => done()));
  }

  checkoutUrl(cart: CartRecord): string {
    return `${this.origin}/cart/c/${cart.token}?key=${cart.key}`;
  }

  /** Pays a checkout as a buyer would on the hosted page; `checkout` is its URL or the cart id. */
  pay(checkout: string, input?: PayInput): Promise<OrderRecord> {
    const token = /\/cart\/c\/([^/?]+)/.exec(checkout)?.[1] ?? gidId('Cart', checkout) ?? checkout;
    return payCheckout(this.carts, this.orders, token, input);
  }

  /** Admin tokens issued by the client-credentials grant so far. */
  get grantsIssued(): number {
    return this.issued.size;
  }

  /** Calls per API since the last reset, for benchmarks and tests. */
  resetCalls(): void {
    this.calls.length = 0;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://simulator');
    try {
      const raw = await readBody(req);
      let match: RegExpExecArray | null;
      if (req.method === 'POST' && (match = /^\/api\/([^/]+)\/graphql\.json$/.exec(url.pathname))) {
        return await this.graphql('storefront', match[1]!, req, raw, res);
      }
      if (req.method === 'POST' && (match = /^\/admin\/api\/([^/]+)\/graphql\.json$/.exec(url.pathname))) {
        return await this.graphql('admin', match[1]!, req, raw, res);
      }
      if (req.method === 'POST' && url.pathname === '/admin/oauth/access_token') return this.grant(parseBody(req, raw), res);
      if ((match = /^\/cart\/c\/([^/]+)(\/pay)?$/.exec(url.pathname)))
        return await this.checkout(req, res, match[1]!, !!match[2], parseBody(req, raw));
      if (await this.customerAccounts.handle(req, res, url, parseBody(req, raw))) return;
      if (req.method === 'POST' && url.pathname.startsWith('/_simulator/'))
        return await this.control(url.pathname, parseBody(req, raw) ?? {}, res);
      return send(res, 404, { errors: 'Not Found' });
    } catch (error) {
      if (error instanceof HttpError) return send(res, error.status, error.body);
      if (error instanceof OrderActionError) return send(res, 422, { error: error.message });
      send(res, 500, { errors: 'Internal error' });
    }
  }

  private grant(body: Record<string, unknown> | undefined, res: ServerResponse) {
    const { clientId, clientSecret } = this.credentials;
    if (body?.grant_type !== 'client_credentials' || body.client_id !== clientId || body.client_secret !== clientSecret) {
      return send(res, 400, {
        error: 'invalid_client',
        error_description:
          'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.',
      });
    }
    const token = `shpat_${randomBytes(16).toString('hex')}`;
    const ttl = this.options.tokenTtlSeconds ?? 86_399;
    this.issued.set(token, this.now() + ttl * 1000);
    send(res, 200, {
      access_token: token,
      scope: 'read_products,read_orders,write_orders,write_draft_orders,read_fulfillments',
      expires_in: ttl,
    });
  }

  private authorized(api: ShopifyApi, req: IncomingMessage): boolean {
    if (api === 'storefront') return req.headers['shopify-storefront-private-token'] === this.credentials.storefrontToken;
    const token = req.headers['x-shopify-access-token'];
    if (typeof token !== 'string') return false;
    const expires = this.issued.get(token);
    return token === this.credentials.adminToken || (expires !== undefined && expires > this.now());
  }

  private async graphql(api: ShopifyApi, version: string, req: IncomingMessage, raw: Buffer, res: ServerResponse): Promise<void> {
    const served = servedVersion(version);
    const schema = served && shopifySchema(api, served);
    if (!served || !schema) return send(res, 404, { errors: 'Not Found' });
    // Every answer names the version that served it (a retired one falls forward).
    res.setHeader('x-shopify-api-version', served);
    if (!this.authorized(api, req)) return send(res, 401, INVALID_TOKEN);
    if (this.latencyMs > 0) await sleep(this.latencyMs);
    const fault = this.faults.take(api);
    if (fault && fault.type !== 'lost') return this.fail(api, fault, res);

    const body = parseBody(req, raw);
    if (!body || typeof body.query !== 'string') return send(res, 400, { errors: { query: 'Required parameter missing or invalid' } });
    const variables = body.variables && typeof body.variables === 'object' ? (body.variables as Record<string, unknown>) : {};
    const operationName = typeof body.operationName === 'string' ? body.operationName : null;
    const checked = checkDocument(schema, body.query);
    if ('syntaxError' in checked) return send(res, 200, { errors: [checked.syntaxError.toJSON()] });
    const { document, errors: invalid } = checked;
    const operation = getOperationAST(document, operationName);
    this.calls.push({
      api,
      version,
      operationName: operation?.name?.value ?? null,
      fields: operation?.selectionSet.selections.flatMap((s) => (s.kind === Kind.FIELD ? [s.name.value] : [])) ?? [],
      ...(typeof req.headers['shopify-storefront-buyer-ip'] === 'string' && { buyerIp: req.headers['shopify-storefront-buyer-ip'] }),
    });
    const cost = queryCost(document);
    const extensions =
      api === 'admin'
        ? {
            cost: {
              requestedQueryCost: cost,
              actualQueryCost: cost,
              throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 2000 - cost, restoreRate: 100 },
            },
          }
        : undefined;
    if (invalid.length) return send(res, 200, { errors: invalid.map((e) => e.toJSON()), ...(extensions && { extensions }) });
    if (!operation) return send(res, 200, { errors: [{ message: 'An operation name is required' }] });
    if (carrierRatesWithoutDefer(operation.selectionSet))
      return send(res, 200, {
        errors: [{ message: 'withCarrierRates requires the @defer directive.', extensions: { code: 'BAD_REQUEST' } }],
      });

    const contextDirective = schema.getDirective('inContext');
    const inContext = contextDirective
      ? (getDirectiveValues(contextDirective, operation, variables) as { country?: string; language?: string } | undefined)
      : undefined;
    const searchWarnings: AdminRequest['searchWarnings'] = [];
    const rootValue =
      api === 'storefront'
        ? storefrontRoot(this.shop, this.carts, {
            country: inContext?.country ?? null,
            language: inContext?.language ?? null,
            checkoutUrl: (cart) => this.checkoutUrl(cart),
          })
        : adminRoot(this.shop, this.orders, this.drafts, this.webhooks, {
            origin: this.origin,
            shopDomain: this.shopDomain,
            apiVersion: served,
            now: this.now,
            searchWarnings,
          });
    const result = await execute({ schema, document, rootValue, variableValues: variables, operationName });
    if (fault?.type === 'lost') {
      res.socket?.destroy();
      return;
    }
    const errors = result.errors?.map((e) =>
      e.originalError instanceof ArgumentError ? { ...e.toJSON(), extensions: { code: 'BAD_REQUEST' } } : e.toJSON(),
    );
    // A search term on a field the query does not search is left out, with a warning (search-syntax.ts).
    const answered = extensions && searchWarnings.length ? { ...extensions, search: searchWarnings } : extensions;
    if (result.data && !errors && hasDefer(operation.selectionSet))
      return sendDeferred(res, operation, result.data, answered ? { extensions: answered } : {});
    send(res, 200, {
      ...(errors && { errors }),
      ...(result.data !== undefined && { data: result.data }),
      ...(answered && { extensions: answered }),
    });
  }

  private fail(api: ShopifyApi, fault: Fault, res: ServerResponse): void {
    switch (fault.type) {
      case 'status':
        res.setHeader('content-type', 'application/json');
        if (fault.retryAfterSeconds !== undefined) res.setHeader('retry-after', String(fault.retryAfterSeconds));
        res.statusCode = fault.status;
        res.end(JSON.stringify({ errors: fault.status === 429 || fault.status === 430 ? 'Throttled' : 'Internal Server Error' }));
        return;
      case 'throttle':
        if (api === 'storefront') return this.fail(api, { type: 'status', status: 430 }, res);
        send(res, 200, {
          errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' } }],
          extensions: {
            cost: {
              requestedQueryCost: 50,
              actualQueryCost: null,
              throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 10, restoreRate: 100 },
            },
          },
        });
        return;
      case 'garbage':
        res.setHeader('content-type', 'application/json');
        res.end('<!DOCTYPE html><html><body>Something went wrong</body></html>');
        return;
      case 'reset':
        res.socket?.destroy();
        return;
      case 'hang':
        return;
    }
  }

  private async checkout(
    req: IncomingMessage,
    res: ServerResponse,
    token: string,
    pay: boolean,
    body: Record<string, unknown> | undefined,
  ): Promise<void> {
    if (!pay && req.method === 'GET') {
      const page = checkoutPage(this.carts, token);
      if (!page) return send(res, 404, { errors: 'Not Found' });
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(page);
      return;
    }
    if (!pay || req.method !== 'POST') return send(res, 405, { errors: 'Method Not Allowed' });
    const object = (value: unknown) => (value && typeof value === 'object' ? value : undefined);
    const order = await payCheckout(this.carts, this.orders, token, {
      ...(typeof body?.email === 'string' && body.email && { email: body.email }),
      ...(object(body?.shippingAddress) && { shippingAddress: body!.shippingAddress as PayInput['shippingAddress'] }),
      ...(object(body?.payment) && { payment: body!.payment as PaymentMethod }),
      ...((body?.delivery === 'shipping' || object(body?.delivery)) && { delivery: body!.delivery as PayInput['delivery'] }),
    });
    if ((req.headers['content-type'] ?? '').includes('form-urlencoded')) {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(`<!doctype html><html><body><h1>Thank you!</h1><p>Order ${order.name} is confirmed.</p></body></html>`);
      return;
    }
    send(res, 200, { order: { id: order.id, name: order.name } });
  }

  /**
   * POST /_simulator/orders/{id}/{fulfill|event|refund|cancel|mark-paid|capture|settle},
   * /_simulator/webhooks/retry and /_simulator/faults.
   */
  private async control(path: string, body: Record<string, unknown>, res: ServerResponse): Promise<void> {
    if (path === '/_simulator/webhooks/retry') {
      const sent = await this.webhooks.retryDue();
      return send(res, 200, { sent: sent.map((d) => ({ topic: d.topic, attempt: d.attempt, results: d.results })) });
    }
    if (path === '/_simulator/faults') {
      this.faults.inject(body.fault as Fault, {
        ...(body.target !== undefined && { target: body.target as 'admin' }),
        ...(typeof body.times === 'number' && { times: body.times }),
      });
      return send(res, 200, { ok: true });
    }
    const match = /^\/_simulator\/orders\/(\d+)\/(fulfill|event|refund|cancel|mark-paid|capture|settle)$/.exec(path);
    if (!match) return send(res, 404, { errors: 'Not Found' });
    const orderId = `gid://shopify/Order/${match[1]}`;
    const result = await this.orderAction(orderId, match[2]!, body);
    send(res, 200, {
      order: { id: result.order.id, name: result.order.name },
      ...(result.fulfillment && { fulfillment: { id: result.fulfillment.id } }),
    });
  }

  /** A merchant's (or payment provider's) action on an order, as the control API names it. */
  private async orderAction(
    orderId: string,
    action: string,
    body: Record<string, unknown>,
  ): Promise<{ order: OrderRecord; fulfillment?: { id: string } }> {
    switch (action) {
      case 'fulfill':
        return this.orders.fulfill(orderId, body);
      case 'event':
        return this.orders.fulfillmentEvent(orderId, text(body.fulfillmentId), text(body.status, 'IN_TRANSIT'));
      case 'refund':
        return this.orders.refund(orderId, body);
      case 'mark-paid': {
        const { order, userErrors } = await this.orders.markAsPaid(orderId);
        if (!order || userErrors.length) throw new OrderActionError(userErrors[0]?.message ?? `no order ${orderId}`);
        return { order };
      }
      case 'capture':
        return this.orders.capture(orderId);
      case 'settle':
        return this.orders.settle(orderId);
      default:
        return this.orders.cancel(orderId, typeof body.reason === 'string' ? body.reason : undefined);
    }
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return;
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(body));
}

/** Starts a simulator on a free port (or `options.port`). */
export async function startShopifySimulator(options: ShopifySimulatorOptions = {}): Promise<ShopifySimulator> {
  const simulator = new ShopifySimulator(options);
  await simulator.listen();
  return simulator;
}
