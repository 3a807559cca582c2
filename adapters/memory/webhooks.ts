/**
 * The demo store's own webhooks, shaped like Shopify's and WooCommerce's: a JSON body
 * {order_id, reference?, store_reference?} signed with HMAC-SHA256 of the raw bytes under the tenant's
 * `webhook_secret`, base64 in `X-Demo-Webhook-Signature`, with the delivery id and topic in
 * `X-Demo-Webhook-Id` / `X-Demo-Webhook-Topic`. Topic `ping` is the empty delivery a store sends
 * when a webhook is set up. Without a secret the store signs nothing and verifies nothing.
 */
import { randomBytes } from 'node:crypto';
import type { BackendEvent, WebhookHeaders } from '../contract.js';
import { hmac, signatureMatches } from '../kit/hmac.js';
import { header } from '../kit/webhook-headers.js';

export type DemoTopic = 'order.created' | 'order.updated' | 'ping';

export interface SignedWebhook {
  headers: Record<string, string>;
  body: Buffer;
}

const sign = (secret: string, body: Buffer) => hmac('sha256', secret, body).toString('base64');

export function signWebhook(
  secret: string,
  topic: DemoTopic,
  order?: { orderId: string; reference?: string; storeReference?: string },
): SignedWebhook {
  const fields = order && {
    order_id: order.orderId,
    ...(order.reference && { reference: order.reference }),
    ...(order.storeReference && { store_reference: order.storeReference }),
  };
  const body = Buffer.from(JSON.stringify(fields ?? {}));
  return {
    headers: {
      'content-type': 'application/json',
      'x-demo-webhook-id': `whd_${randomBytes(8).toString('hex')}`,
      'x-demo-webhook-topic': topic,
      'x-demo-webhook-signature': sign(secret, body),
    },
    body,
  };
}

export function verifyWebhook(secret: string | undefined, headers: WebhookHeaders, rawBody: Buffer): BackendEvent | null {
  const signature = header(headers, 'x-demo-webhook-signature');
  const eventId = header(headers, 'x-demo-webhook-id');
  const topic = header(headers, 'x-demo-webhook-topic');
  if (!secret || !signature || !eventId || !topic) return null;
  if (!signatureMatches(Buffer.from(signature), Buffer.from(sign(secret, rawBody)))) return null;
  if (topic === 'ping') return { kind: 'ping', eventId };
  let body: unknown;
  try {
    body = JSON.parse(rawBody.toString('utf8'));
  } catch {
    return null;
  }
  const fields = (body ?? {}) as { order_id?: unknown; reference?: unknown; store_reference?: unknown };
  const { order_id: orderId, reference, store_reference: storeReference } = fields;
  if (typeof orderId !== 'string' || orderId === '') return null;
  return {
    kind: 'order',
    eventId,
    orderId,
    topic,
    ...(typeof reference === 'string' && reference !== '' && { reference }),
    ...(typeof storeReference === 'string' && storeReference !== '' && { storeReference }),
  };
}
