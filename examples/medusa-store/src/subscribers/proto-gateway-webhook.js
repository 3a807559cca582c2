// Push delivery of order changes to the protocol gateway (docs/adapters/medusa.md, "Push
// delivery"). A Medusa merchant copies this one file into their project's subscribers folder
// (under src) and sets two environment variables for the Medusa server:
//
//   PROTO_WEBHOOK_URL     the gateway's backend webhook for the tenant, e.g.
//                         https://gateway.example/webhooks/backend (on the tenant's host or path prefix)
//   PROTO_WEBHOOK_SECRET  the secret the tenant's adapter.credentials.webhook_secret references
//
// Without PROTO_WEBHOOK_URL it does nothing. On each order event below it POSTs a small JSON event
//   {"id":"<uuid>","type":"order.fulfillment_created","order_id":"order_…","reference":"chk_…","cart_id":"cart_…","created_at":"…"}
// (`cart_id`: the cart the order was placed from, Medusa's order-cart link: how the gateway finds
// the checkout of an order whose cart lost or never had the reference)
// with `Proto-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, 5 s per
// attempt, three attempts; a delivery that still fails is logged (never the secret) and left to
// the gateway's order poll, which stays on as the safety net.
//
// The events and their payloads are Medusa's own (@medusajs/utils, core-flows/events.ts:
// OrderWorkflowEvents, FulfillmentWorkflowEvents, PaymentEvents; docs.medusajs.com/resources/events-reference).
/* global fetch, AbortSignal, URL, setTimeout */
const { createHmac, randomUUID } = require('node:crypto');

/** Events whose payload names the order as `id`. */
const BY_ORDER_ID = ['order.placed', 'order.updated', 'order.canceled', 'order.completed', 'order.archived'];
/** Events whose payload names the order as `order_id`. */
const BY_ORDER_ID_FIELD = [
  'order.fulfillment_created',
  'order.fulfillment_canceled',
  'order.return_requested',
  'order.return_received',
  'order.claim_created',
  'order.exchange_created',
];
/** Events about a fulfillment (`id`): shipped with its labels, or delivered. */
const BY_FULFILLMENT = ['shipment.created', 'delivery.created'];
/** Events about a payment (`id`): captured or refunded. */
const BY_PAYMENT = ['payment.captured', 'payment.refunded'];

const REFERENCE_KEY = 'gateway_reference';
const ATTEMPTS = 3;
const TIMEOUT_MS = 5_000;
const BACKOFF_MS = [1_000, 3_000];

/** The signature header of `body` sent at `timestamp` (unix seconds). */
function signature(secret, timestamp, body) {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex')}`;
}

/** Which order an event is about (null: none, e.g. a return's own fulfillment). */
async function orderOf(name, data, query) {
  if (BY_ORDER_ID.includes(name)) return data.id ?? null;
  if (BY_ORDER_ID_FIELD.includes(name)) return data.order_id ?? null;
  if (BY_FULFILLMENT.includes(name)) {
    const { data: rows } = await query.graph({ entity: 'fulfillment', fields: ['order.id'], filters: { id: data.id } });
    return rows[0]?.order?.id ?? null;
  }
  const { data: rows } = await query.graph({ entity: 'payment', fields: ['payment_collection.order.id'], filters: { id: data.id } });
  return rows[0]?.payment_collection?.order?.id ?? null;
}

/**
 * POSTs one event, retrying timeouts, network errors, 429 and 5xx; true once the gateway took it.
 * `wait` is the pause between attempts (tests pass a short one).
 */
async function deliver(event, { url, secret, logger, wait = (ms) => new Promise((done) => setTimeout(done, ms)) }) {
  const body = JSON.stringify(event);
  let problem = '';
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    // Signed afresh per attempt: a retry after a pause is still inside the gateway's tolerance.
    const headers = { 'content-type': 'application/json', 'proto-signature': signature(secret, Math.floor(Date.now() / 1000), body) };
    try {
      const response = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(TIMEOUT_MS) });
      if (response.ok) return true;
      problem = `answered ${response.status}`;
      if (response.status !== 429 && response.status < 500) break; // refused (bad secret, unknown tenant): a retry changes nothing
    } catch (error) {
      // fetch reports a refused connection or an unknown host as "fetch failed" with the reason as its cause.
      const reason = error?.cause?.code ?? error?.message;
      problem = error?.name === 'TimeoutError' ? `no answer within ${TIMEOUT_MS} ms` : `unreachable (${reason})`;
    }
    if (attempt < ATTEMPTS) await wait(BACKOFF_MS[attempt - 1]);
  }
  const what = `${event.type} of ${event.order_id ?? 'no order'}`;
  logger.warn(`proto gateway webhook: ${what} not delivered to ${new URL(url).origin}: ${problem}; the gateway's order poll will find it`);
  return false;
}

async function protoGatewayWebhook({ event, container }) {
  const url = process.env.PROTO_WEBHOOK_URL;
  const secret = process.env.PROTO_WEBHOOK_SECRET;
  if (!url) return;
  const logger = container.resolve('logger');
  if (!secret) {
    logger.warn('proto gateway webhook: PROTO_WEBHOOK_URL is set without PROTO_WEBHOOK_SECRET; nothing is pushed');
    return;
  }
  try {
    const query = container.resolve('query');
    const orderId = await orderOf(event.name, event.data ?? {}, query);
    if (!orderId) return;
    const { data: orders } = await query.graph({ entity: 'order', fields: ['id', 'metadata', 'cart.id'], filters: { id: orderId } });
    const reference = orders[0]?.metadata?.[REFERENCE_KEY];
    const cartId = orders[0]?.cart?.id;
    const payload = {
      id: randomUUID(),
      type: event.name,
      order_id: orderId,
      ...(typeof reference === 'string' && { reference }),
      ...(typeof cartId === 'string' && { cart_id: cartId }),
      created_at: new Date().toISOString(),
    };
    await deliver(payload, { url, secret, logger });
  } catch (error) {
    // Never fail Medusa's own event handling over a notification the poll recovers.
    logger.warn(`proto gateway webhook: ${event.name} not pushed: ${error.message}`);
  }
}

exports.default = protoGatewayWebhook;
exports.config = { event: [...BY_ORDER_ID, ...BY_ORDER_ID_FIELD, ...BY_FULFILLMENT, ...BY_PAYMENT] };
// For the set-up check (src/scripts/proto-webhook-ping.js) and the gateway's tests.
exports.signature = signature;
exports.deliver = deliver;
