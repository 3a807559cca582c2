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
 *
 * A delivery not answered 2xx within 5 seconds is retried "a total of 8 times over 4 hours using an
 * exponential backoff schedule ... with the original payload", to "the subscription's address that
 * was configured when the webhook was triggered" (changelog "Updates to webhook retry mechanism",
 * 2024-09); the exact schedule is not published: here 56.25 s doubling (255 x 56.25 s = 3.98 h).
 * After the last retry fails, a subscription created through the Admin API is removed (Shopify's
 * webhook troubleshooting guidance, as commonly summarized: an assumption). `retryDue` sends the
 * retries whose time has come, on the injected clock. Subscriptions need an HTTPS address
 * (`WebhookSubscriptionInput.uri`: "Supports an HTTPS URL, a Google Pub/Sub URI ... or an Amazon
 * EventBridge event source ARN"); plain HTTP is accepted for loopback hosts only, so a local gateway
 * can be the target.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { dateTime, gid } from './graph.js';

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
  /** HTTP status per subscribed URI (0 when unreachable or too slow). */
  results: Array<{ uri: string; status: number }>;
  /** 0 for the first attempt, 1..8 for retries. */
  attempt: number;
}

/** Retries after the first attempt. */
export const MAX_RETRIES = 8;
const RETRY_BASE_MS = 56_250;

interface Retry {
  subscription: Subscription;
  topic: string;
  headers: Record<string, string>;
  body: string;
  attempt: number;
  dueAt: number;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** An HTTPS address, or plain HTTP to this machine. */
function deliverable(uri: string): boolean {
  try {
    const url = new URL(uri);
    return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
  } catch {
    return false;
  }
}

/** "orders/create" -> "ORDERS_CREATE". */
export const topicEnum = (topic: string) => topic.toUpperCase().replace(/\//g, '_');

export class Webhooks {
  readonly subscriptions: Subscription[] = [];
  readonly deliveries: Delivery[] = [];
  private retries: Retry[] = [];
  private sequence = 0;

  constructor(
    private readonly options: { secret: string; shopDomain: string; apiVersion: string; now: () => number; timeoutMs?: number },
  ) {}

  subscribe(topic: string, uri: string, format = 'JSON'): { subscription?: Subscription; error?: string } {
    if (!deliverable(uri)) return { error: 'Address is invalid' };
    if (this.subscriptions.some((s) => s.topic === topic && s.uri === uri))
      return { error: 'Address for this topic has already been taken' };
    const at = dateTime(this.options.now());
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
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'x-shopify-topic': topic,
      'x-shopify-hmac-sha256': createHmac('sha256', this.options.secret).update(body, 'utf8').digest('base64'),
      'x-shopify-shop-domain': this.options.shopDomain,
      'x-shopify-api-version': this.options.apiVersion,
      'x-shopify-webhook-id': randomUUID(),
      'x-shopify-event-id': eventId,
      'x-shopify-triggered-at': new Date(this.options.now()).toISOString(),
    };
    const delivery: Delivery = { topic, headers, body, results: [], attempt: 0 };
    this.deliveries.push(delivery);
    for (const s of this.subscriptions.filter((s) => s.topic === topicEnum(topic))) {
      const status = await this.post(s.uri, headers, body);
      delivery.results.push({ uri: s.uri, status });
      if (!ok(status)) this.schedule({ subscription: s, topic, headers, body, attempt: 1, dueAt: 0 });
    }
    return delivery;
  }

  private schedule(retry: Retry): void {
    this.retries.push({ ...retry, dueAt: this.options.now() + RETRY_BASE_MS * 2 ** (retry.attempt - 1) });
  }

  /** Sends the retries that are due: the same headers and body as the first attempt. */
  async retryDue(): Promise<Delivery[]> {
    const now = this.options.now();
    const due = this.retries.filter((r) => r.dueAt <= now);
    this.retries = this.retries.filter((r) => r.dueAt > now);
    const sent: Delivery[] = [];
    for (const r of due) {
      const status = await this.post(r.subscription.uri, r.headers, r.body);
      const delivery: Delivery = {
        topic: r.topic,
        headers: r.headers,
        body: r.body,
        results: [{ uri: r.subscription.uri, status }],
        attempt: r.attempt,
      };
      this.deliveries.push(delivery);
      sent.push(delivery);
      if (ok(status)) continue;
      if (r.attempt < MAX_RETRIES) this.schedule({ ...r, attempt: r.attempt + 1 });
      else this.unsubscribe(r.subscription.id);
    }
    return sent;
  }

  /** When the next retry is due (ms on the injected clock), if any. */
  get nextRetryAt(): number | undefined {
    return this.retries.length ? Math.min(...this.retries.map((r) => r.dueAt)) : undefined;
  }

  private async post(uri: string, headers: Record<string, string>, body: string): Promise<number> {
    try {
      const response = await fetch(uri, { method: 'POST', headers, body, signal: AbortSignal.timeout(this.options.timeoutMs ?? 5_000) });
      await response.arrayBuffer();
      return response.status;
    } catch {
      return 0;
    }
  }
}

const ok = (status: number) => status >= 200 && status < 300;
