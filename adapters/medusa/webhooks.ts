/**
 * Push deliveries from the merchant's Medusa subscriber (examples/medusa-store/src/subscribers/
 * proto-gateway-webhook.js; Medusa itself sends no webhooks). The subscriber POSTs a small JSON
 * event `{id, type, order_id, reference?, cart_id?, created_at}` (`cart_id`: the cart the order
 * came from, its store reference) with
 * `Proto-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, keyed with the
 * tenant's `webhook_secret`. The timestamp is signed with the body so a captured delivery cannot
 * be replayed after `TOLERANCE_SECONDS`; within it, the gateway's per-event-id deduplication
 * makes a replay a no-op. Anything that does not verify is null (the gateway answers 401).
 */
import { hmac, signatureMatches } from '../kit/hmac.js';
import { header } from '../kit/webhook-headers.js';
import type { BackendEvent, WebhookHeaders } from '../contract.js';

export const SIGNATURE_HEADER = 'proto-signature';
/** How far a delivery's timestamp may be from the gateway's clock, either way (clock skew, retries). */
export const TOLERANCE_SECONDS = 300;

/** `t=<digits>,v1=<64 hex>`, in that order, nothing else. */
const SIGNATURE = /^t=(\d{1,12}),v1=([0-9a-f]{64})$/;

export function verifyMedusaPush(secret: string | undefined, headers: WebhookHeaders, rawBody: Buffer, nowMs: number): BackendEvent | null {
  if (!secret) return null;
  const parsed = SIGNATURE.exec(header(headers, SIGNATURE_HEADER)?.trim() ?? '');
  if (!parsed) return null;
  const [, timestamp, given] = parsed as unknown as [string, string, string];
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > TOLERANCE_SECONDS) return null;
  if (!signatureMatches(Buffer.from(given, 'hex'), hmac('sha256', secret, `${timestamp}.`, rawBody))) return null;

  let event: { id?: unknown; type?: unknown; order_id?: unknown; reference?: unknown; cart_id?: unknown };
  try {
    event = JSON.parse(rawBody.toString('utf8')) as typeof event;
  } catch {
    return null;
  }
  if (typeof event !== 'object' || event === null) return null;
  const { id, type, order_id: orderId, reference, cart_id: cartId } = event;
  if (typeof id !== 'string' || !id || typeof type !== 'string' || !type) return null;
  if (typeof orderId !== 'string' || !orderId) return { kind: 'ping', eventId: id };
  return {
    kind: 'order',
    eventId: id,
    orderId,
    topic: type,
    ...(typeof reference === 'string' && reference && { reference }),
    ...(typeof cartId === 'string' && cartId && { storeReference: cartId }),
  };
}
