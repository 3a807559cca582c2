/**
 * One delivery attempt of an order event (spec part 2 §6.1): the body rendered from the event,
 * Webhook-Id / Webhook-Timestamp / PROTO-Agent, Idempotency-Key (= Webhook-Id), Content-Digest and an RFC 9421 signature by the
 * tenant's active key (covering the webhook headers too), POSTed through the SSRF guard with a
 * deadline and without following redirects. Any 2xx is delivered; anything else is a failure to
 * retry, except what no retry can fix (no signing key, an unusable URL), which is permanent.
 */
import { request } from 'undici';
import type { GatewaySecret } from '../config/gateway-secret.js';
import { orderRefs } from '../capabilities/order/order-shape.js';
import { FetchRefused, guardedDispatcher } from '../net/safe-fetch.js';
import { UnusableWebhookUrl, webhookTarget } from '../net/webhook-target.js';
import { agentHeader } from '../protocol/agent-header.js';
import { signRequest } from '../security/sign.js';
import type { Tenant } from '../tenancy/tenant.js';
import type { OrderEvent } from '../capabilities/order/order-event.js';
import { renderEventBody } from './event-body.js';

export const DELIVERY_TIMEOUT_MS = 10_000;

/** What is read of a platform's answer before the connection is dropped (the body is not used). */
const MAX_RESPONSE_BYTES = 64 * 1024;

export type DeliveryResult =
  | { outcome: 'delivered'; status: number }
  /** `permanent`: retrying cannot help, dead-letter now. */
  | { outcome: 'failed'; reason: string; permanent: boolean };

export interface DeliveryDeps {
  /** The tenant as currently configured (a reload may have replaced it since the event). */
  tenant(id: string): Tenant | undefined;
  secret: GatewaySecret;
  now: () => number;
  timeoutMs: number;
}

interface SignedWebhook {
  url: URL;
  headers: Record<string, string>;
  body: string;
}

/** A reason no retry will change. */
class Undeliverable extends Error {}

/** The request a platform receives for `event`, signed now. */
function signedWebhook(event: OrderEvent, tenant: Tenant, secret: GatewaySecret, now: () => number): SignedWebhook {
  const key = tenant.security.keyring.active;
  if (!key) throw new Undeliverable(`tenant ${tenant.id} has no signing key, and order webhooks must be signed`);
  const url = webhookTarget(event.webhookUrl, tenant.policies.allowLoopbackProfiles);
  const body = renderEventBody(event, orderRefs({ tenant, secret }, event.order, event));
  const headers = signRequest(
    {
      method: 'POST',
      url,
      body,
      headers: {
        'content-type': 'application/json',
        'webhook-id': event.id,
        'webhook-timestamp': String(Math.floor(event.occurredAt / 1000)),
        'proto-agent': agentHeader(event.businessProfile),
        // The event id again, for platforms that deduplicate by Idempotency-Key; a POST covers it in the signature.
        'idempotency-key': event.id,
      },
    },
    { key, now, cover: ['webhook-id', 'webhook-timestamp'] },
  );
  return { url, headers, body };
}

function failureReason(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && error.name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  return error instanceof Error ? error.message : String(error);
}

export async function deliverOrderEvent(event: OrderEvent, deps: DeliveryDeps): Promise<DeliveryResult> {
  const tenant = deps.tenant(event.tenantId);
  if (!tenant) return { outcome: 'failed', reason: `tenant ${event.tenantId} is not configured`, permanent: false };
  let webhook: SignedWebhook;
  let dispatcher: ReturnType<typeof guardedDispatcher>;
  try {
    webhook = signedWebhook(event, tenant, deps.secret, deps.now);
    dispatcher = guardedDispatcher(webhook.url, tenant.policies.allowLoopbackProfiles);
  } catch (error) {
    // A refused IP literal is as final as a bad URL; DNS answers, in contrast, may change.
    const final = error instanceof Undeliverable || error instanceof UnusableWebhookUrl || error instanceof FetchRefused;
    if (final) return { outcome: 'failed', reason: error.message, permanent: true };
    throw error;
  }
  try {
    const response = await request(webhook.url, {
      method: 'POST',
      headers: webhook.headers,
      body: webhook.body,
      dispatcher,
      signal: AbortSignal.timeout(deps.timeoutMs),
    });
    // The status decides; a body that is slow or cut short changes nothing.
    await response.body.dump({ limit: MAX_RESPONSE_BYTES }).catch(() => undefined);
    const status = response.statusCode;
    return status >= 200 && status < 300
      ? { outcome: 'delivered', status }
      : { outcome: 'failed', reason: `HTTP ${status}`, permanent: false };
  } catch (error) {
    return { outcome: 'failed', reason: failureReason(error, deps.timeoutMs), permanent: false };
  }
}
