/**
 * The `wc/v3/webhooks` routes, as includes/rest-api/Controllers/Version1/class-wc-rest-webhooks-v1-controller.php
 * (extended by V2 and V3) answers them:
 * - create: a valid topic (400 `woocommerce_rest_webhook_invalid_topic`) and delivery URL (400
 *   `woocommerce_rest_webhook_invalid_delivery_url`) are required; the webhook is created
 *   active whatever `status` is posted (its post is published), the secret is the one posted or a
 *   generated one; the answer is 201, and the webhook is pinged once (webhooks.ts), its outcome
 *   not read;
 * - update: an unknown id is 400 `woocommerce_rest_webhook_invalid_id` ("ID is invalid."); topic,
 *   URL, secret, status and name change as posted; no ping;
 * - delete needs `force` (501 `woocommerce_rest_trash_not_supported` otherwise);
 * - list: paged with X-WP-Total and X-WP-TotalPages.
 */
import { randomBytes } from 'node:crypto';
import type { RouteContext, RouteResult, Router } from './router.js';
import { WEBHOOK_TOPICS, webhookShape } from './shapes/rest-webhook.js';
import type { WooStore } from './store.js';
import type { WebhookDispatcher } from './webhooks.js';
import { WpError } from './wp-error.js';
import { text } from '../request-text.js';

export function registerWebhookRoutes(
  router: Router,
  store: WooStore,
  dispatcher: WebhookDispatcher,
  paginate: (ctx: RouteContext, all: unknown[]) => RouteResult,
): void {
  const find = (id: number) => {
    const webhook = store.webhooks.get(id);
    if (!webhook) throw new WpError(404, 'woocommerce_rest_webhook_invalid_id', 'Invalid ID.');
    return webhook;
  };
  router.add('GET', '/wc/v3/webhooks', 'read', (ctx) =>
    paginate(
      ctx,
      [...store.webhooks.values()].map((w) => webhookShape(store, w)),
    ),
  );
  router.add('POST', '/wc/v3/webhooks', 'write', (ctx) => createWebhook(store, dispatcher, ctx));
  router.add('GET', '/wc/v3/webhooks/{id}', 'read', (ctx) => ({ body: webhookShape(store, find(Number(ctx.params[0]))) }));
  router.add('PUT', '/wc/v3/webhooks/{id}', 'write', (ctx) => updateWebhook(store, ctx));
  router.add('DELETE', '/wc/v3/webhooks/{id}', 'write', (ctx) => {
    const webhook = find(Number(ctx.params[0]));
    if (ctx.query.force !== 'true' && ctx.query.force !== '1')
      throw new WpError(501, 'woocommerce_rest_trash_not_supported', 'Webhooks do not support trashing.');
    store.webhooks.delete(webhook.id);
    return { body: webhookShape(store, webhook) };
  });
}

async function createWebhook(store: WooStore, dispatcher: WebhookDispatcher, ctx: RouteContext): Promise<RouteResult> {
  const body = ctx.body;
  const topic = text(body.topic);
  if (!WEBHOOK_TOPICS.includes(topic))
    throw new WpError(400, 'woocommerce_rest_webhook_invalid_topic', 'Webhook topic is required and must be valid.');
  const deliveryUrl = text(body.delivery_url);
  if (!/^https?:\/\//.test(deliveryUrl)) {
    throw new WpError(
      400,
      'woocommerce_rest_webhook_invalid_delivery_url',
      'Webhook delivery URL must be a valid URL starting with http:// or https://.',
    );
  }
  const now = store.now();
  const webhook = {
    id: store.nextId('webhook', 0),
    name: typeof body.name === 'string' && body.name ? body.name : `Webhook created on ${now.toUTCString()}`,
    status: 'active' as 'active' | 'paused' | 'disabled',
    topic,
    deliveryUrl,
    secret: typeof body.secret === 'string' && body.secret ? body.secret : randomBytes(25).toString('hex'),
    failureCount: 0,
    pendingDelivery: true,
    dateCreated: now,
    dateModified: now,
  };
  store.webhooks.set(webhook.id, webhook);
  await dispatcher.ping(webhook);
  return { status: 201, body: webhookShape(store, webhook) };
}

function updateWebhook(store: WooStore, ctx: RouteContext): RouteResult {
  const webhook = store.webhooks.get(Number(ctx.params[0]));
  if (!webhook) throw new WpError(400, 'woocommerce_rest_webhook_invalid_id', 'ID is invalid.');
  const body = ctx.body;
  if (typeof body.name === 'string') webhook.name = body.name;
  if (typeof body.delivery_url === 'string') webhook.deliveryUrl = body.delivery_url;
  if (typeof body.secret === 'string' && body.secret) webhook.secret = body.secret;
  if (typeof body.topic === 'string' && WEBHOOK_TOPICS.includes(body.topic)) webhook.topic = body.topic;
  if (body.status === 'active' || body.status === 'paused' || body.status === 'disabled') webhook.status = body.status;
  // The simulator counts failures afresh once a webhook is made active again.
  if (webhook.status === 'active') webhook.failureCount = 0;
  webhook.dateModified = store.now();
  return { body: webhookShape(store, webhook) };
}
