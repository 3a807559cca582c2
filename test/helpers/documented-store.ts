/**
 * A store that implements the gateway's documented store API (docs/adapters/rest-store-api.yaml)
 * from scratch, the way a merchant would: its bodies are the adapter contract's shapes, so each
 * endpoint is a few lines over the demo shop's engine (adapters/memory). The REST adapter runs
 * against it with no mapping at all, which proves its defaults.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import type { QuoteRequest } from '../../adapters/contract.js';
import type { MemoryAdapter } from '../../adapters/memory/index.js';
import { demoStore } from '../adapters/memory/fixtures.js';

export const DOCUMENTED_TOKEN = 'documented-store-token-0123';
export const DOCUMENTED_WEBHOOK_SECRET = 'documented-store-webhook-secret';

export interface DocumentedStore {
  origin: string;
  engine: MemoryAdapter;
  /** Statuses the next API calls answer with instead (429 comes with Retry-After: 1). */
  failNext: Array<429 | 500 | 'garbage' | 'hang'>;
  /** The signed webhook the store sends about an event. */
  webhook(type: string, orderId?: string, reference?: string): { headers: Record<string, string>; body: Buffer };
  close(): Promise<void>;
}

export async function startDocumentedStore(): Promise<DocumentedStore> {
  const { adapter: engine } = await demoStore();
  const carts = new Map<string, QuoteRequest>();
  const failNext: DocumentedStore['failNext'] = [];
  const app = Fastify();

  app.addHook('onRequest', async (req, reply) => {
    if (req.headers.authorization !== `Bearer ${DOCUMENTED_TOKEN}`) return reply.code(401).send({ error: 'unauthorized' });
    const fault = failNext.shift();
    if (fault === 'hang') return reply.hijack();
    if (fault === 'garbage') return reply.type('text/html').send('<html>oops</html>');
    if (fault) return reply.code(fault).header('retry-after', '1').send({ error: 'fault' });
  });

  const priced = async (id: string, request: QuoteRequest) => ({ ...(await engine.quote(request)), cartId: id });
  app.get('/health', async () => ({ ok: true }));
  app.get('/products', async (req) => {
    const q = req.query as { q?: string; limit: string; cursor?: string };
    const page = await engine.search({ ...(q.q && { text: q.q }), limit: Number(q.limit), ...(q.cursor && { pageToken: q.cursor }) });
    return { products: page.products, totalCount: page.totalCount, ...(page.nextPageToken && { nextCursor: page.nextPageToken }) };
  });
  app.get('/products/lookup', async (req) => {
    const ids = (req.query as { id: string | string[] }).id;
    return { results: await engine.lookup(Array.isArray(ids) ? ids : [ids]) };
  });
  app.post('/carts', async (req, reply) => {
    const id = `c_${randomBytes(6).toString('hex')}`;
    carts.set(id, req.body as QuoteRequest);
    return reply.code(201).send(await priced(id, req.body as QuoteRequest));
  });
  app.put('/carts/:id', async (req, reply) => {
    const { id } = req.params as { id: string };
    if (!carts.has(id)) return reply.code(404).send({ error: 'no such cart' });
    carts.set(id, req.body as QuoteRequest);
    return priced(id, req.body as QuoteRequest);
  });
  app.post('/carts/:id/checkout', async (req, reply) => {
    const cart = carts.get((req.params as { id: string }).id);
    if (!cart) return reply.code(404).send({ error: 'no such cart' });
    return engine.checkoutUrl({ reference: (req.body as { reference: string }).reference, quote: cart });
  });
  app.post('/orders', async (req, reply) => {
    const body = req.body as { cartId: string } & Omit<Parameters<MemoryAdapter['placeOrder']>[0], 'quote'>;
    const cart = carts.get(body.cartId);
    if (!cart) return reply.code(404).send({ error: 'no such cart' });
    if (body.payment.mode === 'store_charged' && body.payment.credential.token !== 'success_token')
      return { status: 'rejected', reason: 'payment_declined', detail: 'declined' };
    const payment =
      body.payment.mode === 'gateway_charged'
        ? body.payment
        : {
            mode: 'gateway_charged' as const,
            record: { handlerId: 'store', transactionId: `st_${body.reference}`, amount: body.expectedTotal },
          };
    return engine.placeOrder({ ...body, quote: cart, payment });
  });
  app.get('/orders', async (req) => {
    const found = await engine.findOrderByReference((req.query as { reference: string }).reference);
    return { orders: found ? [found] : [] };
  });
  app.get('/orders/changes', async (req) => ({ changes: await engine.ordersChangedSince((req.query as { since: string }).since) }));
  app.post('/customers/login', async (req, reply) => {
    const { email, password } = (req.body ?? {}) as { email?: unknown; password?: unknown };
    const customer =
      typeof email === 'string' && typeof password === 'string' ? await engine.authenticateCustomer?.({ email, password }) : null;
    return customer ?? reply.code(422).send({ error: 'invalid_credentials' });
  });
  app.get(
    '/orders/:id',
    async (req, reply) => (await engine.getOrder((req.params as { id: string }).id)) ?? reply.code(404).send({ error: 'no such order' }),
  );

  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    origin: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    engine,
    failNext,
    webhook(type, orderId, reference) {
      const body = Buffer.from(
        JSON.stringify({ id: `evt_${randomBytes(6).toString('hex')}`, type, ...(orderId && { orderId }), ...(reference && { reference }) }),
      );
      return {
        headers: {
          'content-type': 'application/json',
          'x-store-signature': createHmac('sha256', DOCUMENTED_WEBHOOK_SECRET).update(body).digest('base64'),
        },
        body,
      };
    },
    close: async () => {
      app.server.closeAllConnections();
      await app.close();
    },
  };
}
