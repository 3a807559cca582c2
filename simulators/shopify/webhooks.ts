/**
 * Webhook subscriptions (Admin `webhookSubscriptionCreate`) and signed deliveries as Shopify sends
 * them: a JSON body, `X-Shopify-Hmac-Sha256` = base64 HMAC-SHA256 of the raw body keyed with the
 * app's client secret, and the topic, shop, API version and webhook id headers
 * (https://shopify.dev/docs/apps/build/webhooks/verify-deliveries). Every delivery is kept, so a
 * test can hand the exact headers and raw body to an adapter; subscribed URIs get it by POST.
 *
 * Shopify may deliver one event more than once: each delivery has its own `X-Shopify-Webhook-Id`,
 * and the same `X-Shopify-Event-Id` marks the duplicates
 * (https://shopify.dev/docs/apps/build/webhooks/ignore-duplicates); `redeliver` sends one.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { gid } from './graph.js';

export interface Subscription {
  id: string;
  /** GraphQL enum form, e.g. ORDERS_CREATE. */
  topic: string;
  uri: string;
  format: string;
  createdAt: string;
  updatedAt: string;
}

export interface Delivery {
  topic: string;
  headers: Record<string, string>;
  body: string;
  /** HTTP status per subscribed URI (0 when unreachable). */
  results: Array<{ uri: string; status: number }>;
}

/** "orders/create" -> "ORDERS_CREATE". */
export const topicEnum = (topic: string) => topic.toUpperCase().replace(/\//g, '_');

export class Webhooks {
  readonly subscriptions: Subscription[] = [];
  readonly deliveries: Delivery[] = [];
  private sequence = 0;

  constructor(
    private readonly options: { secret: string; shopDomain: string; apiVersion: string; now: () => number; timeoutMs?: number },
  ) {}

  subscribe(topic: string, uri: string, format = 'JSON'): { subscription?: Subscription; error?: string } {
    if (!/^https?:\/\//.test(uri)) return { error: 'Address is invalid' };
    if (this.subscriptions.some((s) => s.topic === topic && s.uri === uri))
      return { error: 'Address for this topic has already been taken' };
    const at = new Date(this.options.now()).toISOString();
    const subscription = {
      id: gid('WebhookSubscription', 1_500_000_000 + ++this.sequence),
      topic,
      uri,
      format,
      createdAt: at,
      updatedAt: at,
    };
    this.subscriptions.push(subscription);
    return { subscription };
  }

  unsubscribe(id: string): boolean {
    const index = this.subscriptions.findIndex((s) => s.id === id);
    if (index >= 0) this.subscriptions.splice(index, 1);
    return index >= 0;
  }

  /** Signs and records one delivery, and posts it to every subscription of its topic. */
  async emit(topic: string, payload: unknown): Promise<Delivery> {
    return this.send(topic, JSON.stringify(payload), randomUUID());
  }

  /** The same event again, as a duplicate delivery: same body and event id, a new webhook id. */
  redeliver(delivery: Delivery): Promise<Delivery> {
    return this.send(delivery.topic, delivery.body, delivery.headers['x-shopify-event-id']!);
  }

  private async send(topic: string, body: string, eventId: string): Promise<Delivery> {
    const webhookId = randomUUID();
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'x-shopify-topic': topic,
      'x-shopify-hmac-sha256': createHmac('sha256', this.options.secret).update(body, 'utf8').digest('base64'),
      'x-shopify-shop-domain': this.options.shopDomain,
      'x-shopify-api-version': this.options.apiVersion,
      'x-shopify-webhook-id': webhookId,
      'x-shopify-event-id': eventId,
      'x-shopify-triggered-at': new Date(this.options.now()).toISOString(),
    };
    const delivery: Delivery = { topic, headers, body, results: [] };
    this.deliveries.push(delivery);
    for (const s of this.subscriptions.filter((s) => s.topic === topicEnum(topic))) {
      let status: number;
      try {
        const response = await fetch(s.uri, {
          method: 'POST',
          headers,
          body,
          signal: AbortSignal.timeout(this.options.timeoutMs ?? 5_000),
        });
        status = response.status;
        await response.arrayBuffer();
      } catch {
        status = 0;
      }
      delivery.results.push({ uri: s.uri, status });
    }
    return delivery;
  }
}
