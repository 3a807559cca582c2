/**
 * Verifies the store's order webhooks: an HMAC over the exact bytes received (optionally with a
 * signed timestamp, Stripe style, refused outside the tolerance), compared in constant time, then
 * reduced to a BackendEvent from the fields the tenant file points at. Event types that are
 * neither orders nor pings (a product update, a test event) verify as pings: acknowledged, no work.
 */
import type { BackendEvent, WebhookHeaders } from '../contract.js';
import { hmac, signatureMatches } from '../kit/hmac.js';
import { header } from '../kit/webhook-headers.js';
import { fillTemplate } from './auth.js';
import type { ResolvedWebhooks } from './defaults.js';

/** `header:x-event-id` or a dotted path into the JSON body. */
function field(source: string, headers: WebhookHeaders, body: unknown): string | undefined {
  const value = source.startsWith('header:')
    ? header(headers, source.slice('header:'.length))
    : source
        .split('.')
        .reduce<unknown>((v, key) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined), body);
  return typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;
}

export type WebhookVerifier = (headers: WebhookHeaders, rawBody: Buffer) => BackendEvent | null;

export function webhookVerifier(settings: ResolvedWebhooks, secret: string, now: () => number): WebhookVerifier {
  const pattern = settings.signature_pattern ? new RegExp(settings.signature_pattern) : undefined;
  const [before = '', after = ''] = fillTemplate(settings.signed_payload, {}).split('{body}');
  const toleranceMs = (settings.tolerance_seconds ?? 300) * 1000;
  const encoding = settings.encoding;

  return (headers, rawBody) => {
    const value = header(headers, settings.signature_header);
    if (!value) return null;
    const parts = pattern ? pattern.exec(value)?.groups : { signature: value };
    const signature = parts?.signature;
    if (!signature) return null;
    const timestamp = parts.timestamp;
    if (timestamp !== undefined && !(Math.abs(now() - Number(timestamp) * 1000) <= toleranceMs)) return null;
    const fill = (text: string) => text.replace(/\{timestamp\}/g, timestamp ?? '');
    if (!signatureMatches(Buffer.from(signature, encoding), hmac(settings.algorithm, secret, fill(before), rawBody, fill(after))))
      return null;

    let body: unknown;
    try {
      body = JSON.parse(rawBody.toString('utf8'));
    } catch {
      return null;
    }
    const { event } = settings;
    const eventId = field(event.id, headers, body);
    const type = field(event.type, headers, body);
    if (!eventId || !type) return null;
    if (!event.order_types.includes(type)) return { kind: 'ping', eventId };
    const orderId = field(event.order_id, headers, body);
    if (!orderId) return null;
    const reference = event.reference ? field(event.reference, headers, body) : undefined;
    const storeReference = event.store_reference ? field(event.store_reference, headers, body) : undefined;
    return { kind: 'order', eventId, orderId, topic: type, ...(reference && { reference }), ...(storeReference && { storeReference }) };
  };
}
