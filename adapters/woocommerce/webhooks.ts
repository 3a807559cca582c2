/**
 * Webhooks from the store, verified as WooCommerce signs them
 * (plugins/woocommerce/includes/class-wc-webhook.php): `X-WC-Webhook-Signature` is the base64
 * HMAC-SHA256 of the raw body keyed with the webhook's secret. The first delivery of a new
 * webhook is a ping (a form post `webhook_id=<id>`, unsigned) that must be answered 200.
 * `X-WC-Webhook-Delivery-ID` is a hash of the webhook id and the current second, so two events
 * of one webhook in the same second share it: the event id is the delivery id plus a digest of
 * the body (a redelivery repeats both; a different change does not).
 * Order topics become order events (the reference from the order's meta), except those of a
 * checkout draft: WooCommerce announces the Store API's order before payment too
 * (WC_Webhook::is_valid_resource skips only draft, auto-draft and new), and a checkout that fails
 * validation leaves one behind, which is no order yet. Product topics tell the catalog cache what
 * changed and need nothing else.
 */
import { createHash } from 'node:crypto';
import type { BackendEvent, CatalogChange, WebhookHeaders } from '../contract.js';
import { hmac, signatureMatches } from '../kit/hmac.js';
import { header } from '../kit/webhook-headers.js';
import { REFERENCE_META } from './order-map.js';

/** Compared as base64 text, as WooCommerce's own `hash_equals` does. */
const signedBy = (secret: string, rawBody: Buffer, signature: string) =>
  signatureMatches(Buffer.from(signature.trim()), Buffer.from(hmac('sha256', secret, rawBody).toString('base64')));

export function verifyDelivery(
  secret: string | undefined,
  headers: WebhookHeaders,
  rawBody: Buffer,
  onCatalogChange: (change: CatalogChange) => void,
): BackendEvent | null {
  const signature = header(headers, 'x-wc-webhook-signature');
  if (!signature) {
    const ping = /^webhook_id=(\d+)$/.exec(rawBody.toString('utf8').trim());
    return ping ? { kind: 'ping', eventId: `ping-${ping[1]}` } : null;
  }
  if (!secret || !signedBy(secret, rawBody, signature)) return null;
  const topic = header(headers, 'x-wc-webhook-topic');
  const delivery = header(headers, 'x-wc-webhook-delivery-id');
  if (!topic || !delivery) return null;
  const eventId = `${delivery}-${createHash('sha256').update(rawBody).digest('hex').slice(0, 16)}`;
  let body: { id?: unknown; status?: unknown; meta_data?: unknown };
  try {
    body = JSON.parse(rawBody.toString('utf8')) as typeof body;
  } catch {
    return null;
  }
  const id = typeof body?.id === 'number' || (typeof body?.id === 'string' && /^\d+$/.test(body.id)) ? String(body.id) : undefined;
  if (topic.startsWith('product.')) {
    onCatalogChange(id ? { productIds: [id] } : { all: true });
    return { kind: 'ping', eventId };
  }
  if (!topic.startsWith('order.') || !id || body.status === 'checkout-draft') return { kind: 'ping', eventId };
  const meta = Array.isArray(body.meta_data) ? (body.meta_data as Array<{ key?: unknown; value?: unknown }>) : [];
  const reference = meta.find((m) => m?.key === REFERENCE_META)?.value;
  return { kind: 'order', eventId, orderId: id, topic, ...(typeof reference === 'string' && reference && { reference }) };
}
