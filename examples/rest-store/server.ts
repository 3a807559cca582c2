/**
 * The reference store: a home-grown shop's REST API serving the demo flower shop (config/demo,
 * the same product ids) in a shape of its own, for the generic REST adapter to be proven against.
 *
 *   GET  /api/v2/health              (GET /health: the same, unsigned, for process managers)
 *   GET  /api/v2/items?q=&kind=&min_price=&max_price=&in_stock=&page=&per_page=   page-based
 *   GET  /api/v2/items/lookup?keys=a,b                    item ids, variant ids, SKUs, slugs
 *   GET  /api/v2/locations        the shops orders are collected at (a cart's `pickup_at`)
 *   GET|POST /api/v2/webhooks {url, events}   where order webhooks go (one registration per URL)
 *   POST /api/v2/carts            PUT|GET /api/v2/carts/{cart_id}      (404 once expired)
 *   PATCH /api/v2/carts/{cart_id}   POST /api/v2/carts/{cart_id}/lines   PATCH|DELETE /api/v2/carts/{cart_id}/lines/{line_id}
 *                                   the cart-side API: a cart edited piece by piece (README.md)
 *   POST /api/v2/carts/{cart_id}/checkout-link {reference}             hosted checkout page
 *   POST /api/v2/orders {cart_id, reference, expected_total, customer, payment}  once per reference
 *                                   and once per Idempotency-Key header (a repeat gets the first answer);
 *                                   a card its issuer challenges: 202 with a payment to confirm (payments.ts)
 *   GET  /api/v2/orders?reference=   ?cart_id=   ?updated_since= (>=) or ?updated_after= (>) &page=   GET /api/v2/orders/{id}
 *   POST /api/v2/orders/{id}/events  the merchant ships, delivers, cancels, refunds (webhook follows)
 *   POST /api/v2/customers/authenticate {username, password}   a customer's login: 200 {customer}, or
 *                                   401 invalid_credentials for an unknown email and a wrong password alike
 *   GET|POST /checkout/{token}       the hosted checkout page (no API auth: buyers use it)
 *   GET|POST /pay/{payment_id}       the buyer confirms a challenged payment (no API auth)
 *   /_control/...                    latency, faults, call counts, webhook log, the merchant's back office
 *                                    (POST /_control/orders/{id}/events, unsigned), when `controls`
 *
 * Money is decimal strings ("35.00"); every /api call is HMAC-signed (auth.ts); errors are
 * `{"error": {"code", "message"}}`; order changes go out as signed webhooks (webhooks.ts).
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { lookup } from '../../adapters/memory/lookup.js';
import { loadStore } from '../../adapters/memory/data/load-store.js';
import { customerLogins } from '../../adapters/memory/customer-logins.js';
import { buildSearchIndex, matching } from '../../adapters/memory/search.js';
import { toMinorUnits } from '../../adapters/kit/money.js';
import { compile } from '../../schemas/validator.js';
import { checkSignature, type ApiKey } from './auth.js';
import { CartBook, CartInput, DetailsInput, LineInput, LineRefused, QtyInput, type CartRecord } from './carts.js';
import { checkoutPage, problemPage, thanksPage } from './checkout-page.js';
import { Faults, type FaultMode } from './faults.js';
import { OrderBook, OrderEventError, OrderEventInput, type PlaceOutcome, type StoreOrder } from './orders.js';
import { addPaymentPages, PaymentBook, paymentView } from './payments.js';
import { cartView, decimal, itemView, orderView } from './views.js';
import { WebhookSender } from './webhooks.js';

export interface RestStoreOptions {
  /** Folder of the demo shop's files (config/demo). */
  dataDir: string;
  apiKey: ApiKey;
  webhookSecret: string;
  /** Where order webhooks go; none: they are only recorded. */
  webhookUrl?: string;
  /** Added to every /api call (default 0). */
  latencyMs?: number;
  /** Serve /_control (tests, benchmarks, demos). */
  controls?: boolean;
  /** The shop's prices contain its tax (a VAT-style store): carts and orders show it as included. */
  pricesIncludeTax?: boolean;
  /**
   * POST /orders keeps the first answer per Idempotency-Key, whatever it was (a 402 decline too),
   * and replays it, as Stripe's idempotency layer does ("saves the resulting status code and body
   * of the first request made for any given idempotency key, regardless of whether it succeeds or
   * fails", https://docs.stripe.com/api/idempotent_requests). Default: only placed orders are kept.
   */
  replayEveryAnswer?: boolean;
  now?: () => number;
  cartTtlMs?: number;
  /** Webhook retry waits. */
  webhookRetryDelaysMs?: number[];
  logger?: boolean;
}

export interface RestStore {
  app: FastifyInstance;
  /** http://127.0.0.1:<port> once listening. */
  origin: string;
  webhooks: WebhookSender;
  faults: Faults;
  carts: CartBook;
  orders: OrderBook;
  payments: PaymentBook;
  /** Idempotency-Key of POST /orders -> the id of the order it placed. */
  idempotencyKeys: Map<string, string>;
  listen(port?: number, host?: string): Promise<string>;
  close(): Promise<void>;
}

const API = '/api/v2';
const CURRENCY = 'USD';

class StoreError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

function validated<T extends TSchema>(schema: T): (body: unknown) => Static<T> {
  const check = compile<Static<T>>(schema);
  return (body) => {
    const result = check(body);
    if (!result.ok) throw new StoreError(400, 'bad_request', result.message);
    return result.value;
  };
}

const PlaceInput = Type.Object(
  {
    cart_id: Type.String({ minLength: 1 }),
    reference: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    expected_total: Type.Optional(Type.String({ pattern: '^\\d+(\\.\\d+)?$' })),
    customer: Type.Object(
      { email: Type.String({ minLength: 3 }), first_name: Type.Optional(Type.String()), last_name: Type.Optional(Type.String()) },
      { additionalProperties: false },
    ),
    payment: Type.Union([
      Type.Object(
        { kind: Type.Literal('prepaid'), processor_ref: Type.String({ minLength: 1 }), handler: Type.Optional(Type.String()) },
        { additionalProperties: false },
      ),
      Type.Object({ kind: Type.Literal('card'), token: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
    ]),
  },
  { additionalProperties: false },
);

const LoginInput = Type.Object(
  { username: Type.String({ minLength: 1, maxLength: 320 }), password: Type.String({ minLength: 1, maxLength: 1000 }) },
  { additionalProperties: false },
);
/** `reference`: the client's own reference of the checkout, kept with the order (a client may keep its own instead: the cart id). */
const LinkInput = Type.Object({ reference: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) }, { additionalProperties: false });
const FaultInput = Type.Object(
  {
    mode: Type.Union((['throttle', 'error', 'html', 'garbage', 'wrong_shape', 'hang'] satisfies FaultMode[]).map((m) => Type.Literal(m))),
    count: Type.Optional(Type.Integer({ minimum: 1 })),
    retry_after_seconds: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  { additionalProperties: false },
);

const pageParams = (query: Record<string, string | undefined>, maxPerPage: number) => {
  const page = Number(query.page ?? 1);
  const perPage = Number(query.per_page ?? 20);
  if (!Number.isInteger(page) || page < 1 || !Number.isInteger(perPage) || perPage < 1 || perPage > maxPerPage) {
    throw new StoreError(400, 'bad_request', `page must be ≥ 1 and per_page 1..${maxPerPage}`);
  }
  return { page, perPage };
};

const paged = <T>(all: T[], page: number, perPage: number) => ({
  data: all.slice((page - 1) * perPage, page * perPage),
  meta: { page, per_page: perPage, total_items: all.length, total_pages: Math.max(1, Math.ceil(all.length / perPage)) },
});

export async function createRestStore(options: RestStoreOptions): Promise<RestStore> {
  const now = options.now ?? Date.now;
  const loaded = loadStore(options.dataDir, 'http://store.invalid');
  const data = options.pricesIncludeTax ? { ...loaded, tax: { ...loaded.tax, included: true } } : loaded;
  const index = buildSearchIndex(data);
  // The demo customers' logins (config/demo/customer_logins.csv, password demo-flowers).
  const logins = customerLogins(options.dataDir, data.customerEmails);
  const carts = new CartBook(data, now, options.cartTtlMs ?? 86_400_000);
  const orders = new OrderBook(now, data.locations);
  const payments = new PaymentBook();
  const faults = new Faults(options.latencyMs ?? 0);
  const webhooks = new WebhookSender({
    secret: options.webhookSecret,
    now,
    ...(options.webhookUrl && { url: options.webhookUrl }),
    ...(options.webhookRetryDelaysMs && { retryDelaysMs: options.webhookRetryDelaysMs }),
  });
  const links = new Map<string, string>(); // checkout token -> cart id
  const store = { origin: '' };
  const toMinor = (amount: string) => toMinorUnits(amount, CURRENCY);

  const app = Fastify({ logger: options.logger ?? false, bodyLimit: 256 * 1024, forceCloseConnections: true });
  // The signature covers the exact bytes: parse JSON ourselves from the raw body.
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
    (req as FastifyRequest & { rawBody?: Buffer | null }).rawBody = body as Buffer;
    try {
      done(null, (body as Buffer).length ? JSON.parse((body as Buffer).toString('utf8')) : undefined);
    } catch {
      done(new StoreError(400, 'bad_json', 'body is not JSON'), undefined);
    }
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  app.setErrorHandler((error, _req, reply) => {
    if (error instanceof StoreError)
      return reply.code(error.status).send({ error: { code: error.code, message: error.message, ...error.extra } });
    const { statusCode: status = 500, message = '' } = error as { statusCode?: number; message?: string };
    return reply
      .code(status)
      .send({ error: { code: status < 500 ? 'bad_request' : 'internal', message: status < 500 ? message : 'unexpected error' } });
  });

  // Every API call: counted, timed, delayed by the injected latency, possibly faulted, then authenticated.
  const started = new WeakMap<FastifyRequest, number>();
  app.addHook('onRequest', async (req) => {
    if (req.url.startsWith(API)) started.set(req, performance.now());
  });
  app.addHook('onResponse', async (req) => {
    const at = started.get(req);
    if (at !== undefined) faults.time(performance.now() - at);
  });
  app.addHook('preHandler', async (req: FastifyRequest & { rawBody?: Buffer | null }, reply: FastifyReply) => {
    if (!req.url.startsWith(API)) return;
    faults.count(`${req.method} ${req.routeOptions.url ?? req.url.split('?')[0]}`);
    if (faults.latencyMs > 0) await sleep(faults.latencyMs);
    if (faults.answer(reply)) return reply;
    const refused = checkSignature(options.apiKey, req.headers, req.method, req.url, req.rawBody ?? Buffer.alloc(0), now());
    if (refused) return reply.code(401).send({ error: { code: 'unauthorized', message: refused } });
  });

  const cartOr404 = (id: string): CartRecord => {
    const cart = carts.get(id);
    if (!cart) throw new StoreError(404, 'cart_not_found', `no cart ${id} (it may have expired)`);
    return cart;
  };
  const orderOr404 = (id: string): StoreOrder => {
    const order = orders.get(id);
    if (!order) throw new StoreError(404, 'order_not_found', `no order ${id}`);
    return order;
  };
  const announce = (type: string, order: StoreOrder) =>
    webhooks.send(type, {
      order_id: order.id,
      reference: order.reference ?? null,
      cart_id: order.cartId,
      payment_id: order.paymentId ?? null,
      status: order.status,
    });
  addPaymentPages(app, { payments, carts, orders, webhooks, announce });

  app.get(`${API}/health`, async () => ({ ok: true, time: new Date(now()).toISOString() }));
  // Where the store sends its order webhooks: one registration per URL (registering it again keeps it).
  const hooks: Array<{ webhook_id: string; url: string; events: string[] }> = [];
  app.get(`${API}/webhooks`, async () => ({ data: hooks }));
  app.post(`${API}/webhooks`, async (req, reply) => {
    const { url, events } = (req.body ?? {}) as { url?: unknown; events?: unknown };
    if (typeof url !== 'string' || !/^https?:\/\//.test(url)) throw new StoreError(422, 'bad_url', 'url must be an http(s) URL');
    const kept = hooks.find((h) => h.url === url);
    if (kept) return reply.code(200).send(kept);
    const hook = {
      webhook_id: `wh_${randomBytes(6).toString('hex')}`,
      url,
      events: Array.isArray(events) ? events.map(String) : ['order.created', 'order.updated'],
    };
    hooks.push(hook);
    webhooks.deliverTo(url);
    return reply.code(201).send(hook);
  });
  // The shops where orders are collected (config/demo/shipping.yaml `pickup_locations`).
  app.get(`${API}/locations`, async () => ({
    data: data.locations.map(({ location: l, readyWithinHours }) => ({
      location_id: l.id,
      name: l.name,
      address: {
        line1: l.address.streetAddress,
        city: l.address.locality,
        state: l.address.region,
        zip: l.address.postalCode,
        country: l.address.country,
      },
      ready_within_hours: readyWithinHours,
    })),
  }));
  // Liveness for process managers, outside the signed API.
  app.get('/health', async () => ({ ok: true }));

  app.get(`${API}/items`, async (req) => {
    const q = req.query as Record<string, string | undefined>;
    const { page, perPage } = pageParams(q, 100);
    const price = (name: 'min_price' | 'max_price') => {
      const raw = q[name];
      if (raw === undefined || raw === '') return undefined;
      try {
        return toMinor(raw);
      } catch {
        throw new StoreError(400, 'bad_request', `${name} must be a decimal amount`);
      }
    };
    const min = price('min_price');
    const max = price('max_price');
    const found = matching(data, index, {
      ...(q.q && { text: q.q }),
      ...(q.kind && { categories: q.kind.split(',') }),
      ...((min !== undefined || max !== undefined) && {
        price: { currency: CURRENCY, ...(min !== undefined && { min }), ...(max !== undefined && { max }) },
      }),
      ...(q.in_stock !== undefined && { custom: { available: q.in_stock === 'true' } }),
    });
    return paged(found.map(itemView), page, perPage);
  });

  app.get(`${API}/items/lookup`, async (req) => {
    const keys = ((req.query as { keys?: string }).keys ?? '').split(',').filter(Boolean);
    if (keys.length > 100) throw new StoreError(400, 'bad_request', 'at most 100 keys');
    const by = (key: string) =>
      data.variants.has(key) ? 'variant' : data.variantsBySku.has(key.toLowerCase()) ? 'sku' : data.productsById.has(key) ? 'item' : 'slug';
    return {
      data: lookup(data, keys).map((r) => ({
        item: itemView(r.product),
        matched: r.inputs.map((i) => ({ key: i.id, variant_id: i.variantId, by: by(i.id) })),
      })),
    };
  });

  const parseCart = validated(CartInput);
  app.post(`${API}/carts`, async (req, reply) => reply.code(201).send(cartView(carts.create(parseCart(req.body)))));
  app.get(`${API}/carts/:id`, async (req) => cartView(cartOr404((req.params as { id: string }).id)));
  app.put(`${API}/carts/:id`, async (req) => {
    const id = (req.params as { id: string }).id;
    const cart = carts.replace(id, parseCart(req.body));
    if (!cart) throw new StoreError(404, 'cart_not_found', `no open cart ${id} (it may have expired or been ordered)`);
    return cartView(cart);
  });

  // The cart-side API: the client edits the store's cart piece by piece and reads its totals.
  const cartId = (req: FastifyRequest) => (req.params as { id: string }).id;
  const noCart = (id: string) => new StoreError(404, 'cart_not_found', `no open cart ${id} (it may have expired or been ordered)`);
  const lineEdit = (req: FastifyRequest, edit: () => CartRecord | undefined | null) => {
    let cart: CartRecord | undefined | null;
    try {
      cart = edit();
    } catch (error) {
      if (error instanceof LineRefused) throw new StoreError(422, error.code, error.message);
      throw error;
    }
    if (cart === undefined) throw noCart(cartId(req));
    if (cart === null) throw new StoreError(404, 'line_not_found', `the cart has no line ${(req.params as { line: string }).line}`);
    return cartView(cart);
  };
  const parseLine = validated(LineInput);
  const parseQty = validated(QtyInput);
  const parseDetails = validated(DetailsInput);
  app.post(`${API}/carts/:id/lines`, async (req, reply) => {
    const { variant_id, qty, ref } = parseLine(req.body);
    return reply.code(201).send(lineEdit(req, () => carts.addLine(cartId(req), variant_id, qty, ref)));
  });
  app.patch(`${API}/carts/:id/lines/:line`, async (req) => {
    const { qty } = parseQty(req.body);
    return lineEdit(req, () => carts.setLine(cartId(req), (req.params as { line: string }).line, qty));
  });
  app.delete(`${API}/carts/:id/lines/:line`, async (req) =>
    lineEdit(req, () => carts.removeLine(cartId(req), (req.params as { line: string }).line)),
  );
  app.patch(`${API}/carts/:id`, async (req) => {
    const cart = carts.patch(cartId(req), parseDetails(req.body));
    if (!cart) throw noCart(cartId(req));
    return cartView(cart);
  });

  const parseLink = validated(LinkInput);
  app.post(`${API}/carts/:id/checkout-link`, async (req) => {
    const cart = cartOr404((req.params as { id: string }).id);
    const { reference } = parseLink(req.body ?? {});
    if (reference !== undefined) cart.reference = reference;
    const token = randomBytes(12).toString('base64url');
    links.set(token, cart.id);
    return { url: `${store.origin}/checkout/${token}`, cart_id: cart.id };
  });

  const parseLogin = validated(LoginInput);
  app.post(`${API}/customers/authenticate`, async (req) => {
    const { username, password } = parseLogin(req.body);
    const customer = await logins?.({ email: username, password });
    // One answer for an unknown email and a wrong password: the store does not say which accounts exist.
    if (!customer) throw new StoreError(401, 'invalid_credentials', 'wrong email or password');
    return { customer: { id: customer.customerId, email: customer.email } };
  });

  const parsePlace = validated(PlaceInput);
  const idempotencyKeys = new Map<string, string>();
  const answers = new Map<string, { status: number; body: unknown }>();
  /** The answer to keep for a key (replayEveryAnswer): an outcome of the order, not a fault or a bad call. */
  const keepAnswer = (req: FastifyRequest, status: number, body: unknown) => {
    const key = req.headers['idempotency-key'];
    if (options.replayEveryAnswer && typeof key === 'string' && (status < 300 || [402, 409, 422].includes(status)) && !answers.has(key))
      answers.set(key, { status, body });
  };
  const onSend = async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => (
    keepAnswer(req, reply.statusCode, payload),
    payload
  );
  app.post(`${API}/orders`, { onSend }, async (req, reply) => {
    const key = req.headers['idempotency-key'];
    const replay = typeof key === 'string' ? answers.get(key) : undefined;
    if (replay) return reply.code(replay.status).type('application/json').send(replay.body);
    const seen = typeof key === 'string' ? idempotencyKeys.get(key) : undefined;
    if (seen !== undefined) return reply.code(200).send(orderView(orderOr404(seen), store.origin));
    const input = parsePlace(req.body);
    const cart = cartOr404(input.cart_id);
    let expectedTotal: number | undefined;
    try {
      expectedTotal = input.expected_total === undefined ? undefined : toMinor(input.expected_total);
    } catch {
      throw new StoreError(400, 'bad_request', 'expected_total has more decimals than the currency');
    }
    const request = {
      ...(input.reference !== undefined && { reference: input.reference }),
      ...(expectedTotal !== undefined && { expectedTotal }),
      customer: input.customer,
      payment: input.payment,
    };
    const outcome: PlaceOutcome = orders.place(cart, carts.price(cart.input), request);
    switch (outcome.status) {
      case 'placed':
        if (typeof key === 'string') idempotencyKeys.set(key, outcome.order.id);
        if (outcome.created) announce('order.created', outcome.order);
        return reply.code(outcome.created ? 201 : 200).send(orderView(outcome.order, store.origin));
      case 'total_mismatch':
        throw new StoreError(409, 'total_mismatch', 'the cart total changed', { actual_total: decimal(outcome.actual, CURRENCY) });
      case 'declined':
        throw new StoreError(402, 'card_declined', 'the card was declined');
      case 'confirm':
        return reply.code(202).send(paymentView(payments.open(cart.id, request), store.origin));
      default:
        throw new StoreError(422, outcome.status, outcome.message);
    }
  });

  app.get(`${API}/orders`, async (req) => {
    const q = req.query as Record<string, string | undefined>;
    if (q.reference !== undefined || q.cart_id !== undefined) {
      const order = q.reference !== undefined ? orders.findByReference(q.reference) : orders.findByCart(q.cart_id!);
      return {
        data: order ? [orderView(order, store.origin)] : [],
        meta: { page: 1, per_page: 1, total_items: order ? 1 : 0, total_pages: 1 },
      };
    }
    // updated_since is inclusive (>=); updated_after exclusive (>), as many stores' "since" is.
    const after = q.updated_after === undefined ? NaN : Date.parse(q.updated_after);
    const since = Number.isNaN(after) ? Date.parse(q.updated_since ?? '') : after + 1;
    if (Number.isNaN(since)) throw new StoreError(400, 'bad_request', 'give reference, cart_id, updated_since or updated_after (RFC 3339)');
    const { page, perPage } = pageParams(q, 100);
    return paged(
      orders.changedSince(since).map((o) => orderView(o, store.origin)),
      page,
      perPage,
    );
  });

  app.get(`${API}/orders/:id`, async (req) => orderView(orderOr404((req.params as { id: string }).id), store.origin));

  const parseEvent = validated(OrderEventInput);
  const orderEvent = async (req: FastifyRequest) => {
    const order = orderOr404((req.params as { id: string }).id);
    try {
      orders.apply(order, parseEvent(req.body), toMinor);
    } catch (error) {
      if (error instanceof OrderEventError) throw new StoreError(409, 'not_possible', error.message);
      if (error instanceof StoreError) throw error;
      throw new StoreError(400, 'bad_request', (error as Error).message);
    }
    announce('order.updated', order);
    return orderView(order, store.origin);
  };
  app.post(`${API}/orders/:id/events`, orderEvent);

  // The hosted checkout page: buyers, no API auth.
  const linkedCart = (token: string) => {
    const cart = carts.get(links.get(token) ?? '');
    if (!cart) throw new StoreError(404, 'not_found', 'this checkout link is no longer valid');
    return cart;
  };
  app.get('/checkout/:token', async (req, reply) => {
    const token = (req.params as { token: string }).token;
    return reply.type('text/html').send(checkoutPage(linkedCart(token), `/checkout/${token}`));
  });
  app.post('/checkout/:token', async (req, reply) => {
    const cart = linkedCart((req.params as { token: string }).token);
    const form = (req.body ?? {}) as Record<string, string | undefined>;
    // The buyer may give (or change) the delivery address and rate on the page.
    if (form.line1 || cart.input.ship_to) {
      const ship_to = form.line1
        ? {
            line1: form.line1,
            city: form.city ?? '',
            state: form.state ?? '',
            zip: form.zip ?? '',
            country: (form.country ?? 'US').toUpperCase(),
          }
        : cart.input.ship_to;
      const priced = carts.price({ ...cart.input, ...(ship_to && { ship_to }) });
      const rates = priced.fulfillment?.[0]?.groups[0]?.options ?? [];
      const rate = form.shipping_rate_id ?? cart.input.shipping_rate_id ?? rates[0]?.id;
      carts.replace(cart.id, { ...cart.input, ...(ship_to && { ship_to }), ...(rate && { shipping_rate_id: rate }) });
    }
    const outcome = orders.place(cart, carts.price(cart.input), {
      customer: { email: form.email || cart.input.customer?.email || 'buyer@example.com' },
      payment: { kind: 'card', token: form.card_token ?? '' },
    });
    if (outcome.status !== 'placed')
      return reply
        .code(422)
        .type('text/html')
        .send(problemPage(outcome.status === 'declined' ? 'Your card was declined.' : 'Your cart cannot be ordered as it is.'));
    if (outcome.created) announce('order.created', outcome.order);
    return reply.type('text/html').send(thanksPage(outcome.order.id));
  });

  if (options.controls) {
    const parseFault = validated(FaultInput);
    app.post('/_control/faults', async (req) => {
      const fault = parseFault(req.body);
      faults.inject({
        mode: fault.mode,
        count: fault.count ?? 1,
        ...(fault.retry_after_seconds !== undefined && { retryAfterSeconds: fault.retry_after_seconds }),
      });
      return { ok: true };
    });
    app.delete('/_control/faults', async () => (faults.clear(), { ok: true }));
    app.put('/_control/latency', async (req) => {
      const ms = Number((req.body as { ms?: unknown } | undefined)?.ms);
      if (!Number.isInteger(ms) || ms < 0) throw new StoreError(400, 'bad_request', 'ms must be a non-negative integer');
      faults.latencyMs = ms;
      return { ms };
    });
    app.get('/_control/calls', async () => faults.counts());
    app.get('/_control/latency', async () => faults.latency());
    app.delete('/_control/calls', async () => (faults.resetCounts(), { ok: true }));
    app.get('/_control/webhooks', async () => webhooks.deliveries);
    app.delete('/_control/carts', async () => (carts.clear(), { ok: true }));
    app.post('/_control/webhooks/ping', async () => webhooks.send('ping', {}));
    // The merchant's back office (demos): the same order events as the API, without signing.
    app.post('/_control/orders/:id/events', orderEvent);
  }

  return {
    app,
    get origin() {
      return store.origin;
    },
    webhooks,
    faults,
    carts,
    orders,
    payments,
    idempotencyKeys,
    async listen(port = 0, host = '127.0.0.1') {
      await app.listen({ port, host });
      const address = app.server.address();
      store.origin = `http://${host}:${typeof address === 'object' && address ? address.port : port}`;
      return store.origin;
    },
    async close() {
      faults.release();
      await app.close();
      await webhooks.settle();
    },
  };
}
