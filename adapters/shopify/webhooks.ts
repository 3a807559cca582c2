/**
 * Shopify webhooks. Subscribing: the order topics the gateway reads, each subscribed once per
 * callback URL through the Admin API. In: verified with the HMAC Shopify sends (`X-Shopify-Hmac-Sha256`, base64
 * HMAC-SHA256 of the raw body keyed with the app's client secret, compared in constant time),
 * reduced to the order they are about. Deduplicated on `X-Shopify-Event-Id`: a duplicate delivery
 * of one event has a new `X-Shopify-Webhook-Id` but the same event id
 * (https://shopify.dev/docs/apps/build/webhooks/ignore-duplicates); the webhook id stands in
 * only when a delivery has no event id. Order payloads carry the cart attributes as `note_attributes`, so an order
 * placed on Shopify after a handoff names its checkout.
 *
 * Written with the kit's HMAC (adapters/kit/hmac.ts) rather than shopify-api's `webhooks.validate`: the contract's
 * `verifyWebhook` is synchronous and the library's validator is asynchronous (WebCrypto) and
 * wants the framework's request object.
 */
import type { BackendEvent, WebhookHeaders } from '../contract.js';
import { BackendError } from '../contract.js';
import { hmac, signatureMatches } from '../kit/hmac.js';
import { header } from '../kit/webhook-headers.js';
import type { ShopifyClient } from './client.js';
import * as Q from './documents.js';
import { REFERENCE_ATTRIBUTE } from './ids.js';

/** The topics the gateway subscribes to, as webhookSubscriptionCreate names them. */
export const ORDER_TOPICS = [
  'ORDERS_CREATE',
  'ORDERS_UPDATED',
  'ORDERS_CANCELLED',
  'FULFILLMENTS_CREATE',
  'FULFILLMENTS_UPDATE',
  'REFUNDS_CREATE',
] as const;

export function verifyShopifyWebhook(secret: string, headers: WebhookHeaders, rawBody: Buffer): BackendEvent | null {
  const signature = header(headers, 'x-shopify-hmac-sha256');
  const eventId = header(headers, 'x-shopify-event-id') ?? header(headers, 'x-shopify-webhook-id');
  const topic = header(headers, 'x-shopify-topic');
  if (!signature || !eventId || !topic) return null;
  if (!signatureMatches(Buffer.from(signature, 'base64'), hmac('sha256', secret, rawBody))) return null;

  let payload: { id?: unknown; order_id?: unknown; cart_token?: unknown; note_attributes?: Array<{ name?: unknown; value?: unknown }> };
  try {
    payload = JSON.parse(rawBody.toString('utf8')) as typeof payload;
  } catch {
    return null;
  }
  const orderId = topic.startsWith('orders/')
    ? payload.id
    : topic.startsWith('fulfillments/') || topic.startsWith('refunds/')
      ? payload.order_id
      : undefined;
  if (typeof orderId !== 'number' && typeof orderId !== 'string') return { kind: 'ping', eventId };
  const reference = payload.note_attributes?.find((a) => a.name === REFERENCE_ATTRIBUTE)?.value;
  // orders/* carry the order's `cart_token` (null for a draft order's): the cart the gateway handed over.
  const storeReference = topic.startsWith('orders/') ? payload.cart_token : undefined;
  return {
    kind: 'order',
    eventId,
    orderId: String(orderId),
    topic,
    ...(typeof reference === 'string' && { reference }),
    ...(typeof storeReference === 'string' && storeReference && { storeReference }),
  };
}

/** Every webhook subscription of the app on this shop. */
export async function webhookSubscriptions(client: ShopifyClient, signal?: AbortSignal): Promise<Array<{ topic: string; uri: string }>> {
  const all: Array<{ topic: string; uri: string }> = [];
  let after: string | null = null;
  do {
    type Page = {
      webhookSubscriptions: {
        pageInfo: { hasNextPage: boolean; endCursor: string | null };
        nodes: Array<{ topic: string; uri: string }>;
      };
    };
    const page: Page = await client.admin<Page>(Q.WEBHOOK_SUBSCRIPTIONS, { after }, signal);
    all.push(...page.webhookSubscriptions.nodes);
    after = page.webhookSubscriptions.pageInfo.hasNextPage ? page.webhookSubscriptions.pageInfo.endCursor : null;
  } while (after);
  return all;
}

/** Subscribes `callbackUrl` to every order topic the gateway reads; topics already subscribed are left alone. */
export async function registerWebhooks(
  client: ShopifyClient,
  callbackUrl: string,
  signal?: AbortSignal,
): Promise<{ created: string[]; existing: string[] }> {
  const subscribed = new Set((await webhookSubscriptions(client, signal)).filter((s) => s.uri === callbackUrl).map((s) => s.topic));
  const created: string[] = [];
  for (const topic of ORDER_TOPICS.filter((t) => !subscribed.has(t))) {
    type Created = { webhookSubscriptionCreate: { userErrors: Array<{ message: string }> } };
    const { webhookSubscriptionCreate: r } = await client.admin<Created>(
      Q.WEBHOOK_SUBSCRIPTION_CREATE,
      { topic, uri: callbackUrl },
      signal,
    );
    if (r.userErrors.length)
      throw new BackendError(`Shopify refused the ${topic} subscription: ${r.userErrors.map((e) => e.message).join('; ')}`, false);
    created.push(topic);
  }
  return { created, existing: ORDER_TOPICS.filter((t) => subscribed.has(t)) };
}
