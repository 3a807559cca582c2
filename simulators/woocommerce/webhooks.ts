/**
 * Outbound webhooks as WooCommerce delivers them (plugins/woocommerce/includes/class-wc-webhook.php):
 * - a ping when a webhook is created active: a form post `webhook_id=<id>` without signature,
 *   answered with exactly 200 (anything else is reported as a failure);
 * - deliveries: the resource as the REST API renders it (`{id}` for deletions), JSON, with
 *   X-WC-Webhook-Source, -Topic, -Resource, -Event, -Signature (base64 HMAC-SHA256 of the raw
 *   body keyed with the secret), -ID and -Delivery-ID (wp_hash of webhook id + the current
 *   second: not unique per delivery), user agent "WooCommerce/x Hookshot (WordPress/y)";
 * - a 2xx resets the failure count; after more than 5 consecutive failures the webhook is disabled
 *   (`woocommerce_max_webhook_delivery_failures`).
 */
import { createHash, createHmac } from 'node:crypto';
import type { SimWebhook } from './model.js';
import type { WooStore } from './store.js';

export const USER_AGENT = 'WooCommerce/10.2.0 Hookshot (WordPress/6.8.2)';
const MAX_FAILURES = 5;

export interface Delivery {
  webhookId: number;
  url: string;
  headers: Record<string, string>;
  body: string;
  status: number | 'error';
}

export function signature(body: string, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('base64');
}

export function signedRequest(
  store: WooStore,
  webhook: SimWebhook,
  payload: unknown,
  atSeconds: number,
): { headers: Record<string, string>; body: string } {
  const body = JSON.stringify(payload);
  const [resource, event] = webhook.topic.split('.');
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'x-wc-webhook-source': `${store.homeUrl()}/`,
      'x-wc-webhook-topic': webhook.topic,
      'x-wc-webhook-resource': resource!,
      'x-wc-webhook-event': event!,
      'x-wc-webhook-signature': signature(body, webhook.secret),
      'x-wc-webhook-id': String(webhook.id),
      'x-wc-webhook-delivery-id': createHash('md5').update(`${webhook.id}${atSeconds}`).digest('hex'),
    },
  };
}

export class WebhookDispatcher {
  readonly deliveries: Delivery[] = [];
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly store: WooStore,
    private readonly nowSeconds: () => number,
  ) {}

  private async post(webhook: SimWebhook, headers: Record<string, string>, body: string): Promise<number | 'error'> {
    try {
      const response = await fetch(webhook.deliveryUrl, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) });
      await response.arrayBuffer();
      return response.status;
    } catch {
      return 'error';
    }
  }

  async ping(webhook: SimWebhook): Promise<boolean> {
    const headers = { 'user-agent': USER_AGENT, 'content-type': 'application/x-www-form-urlencoded' };
    const body = `webhook_id=${webhook.id}`;
    const status = await this.post(webhook, headers, body);
    this.deliveries.push({ webhookId: webhook.id, url: webhook.deliveryUrl, headers, body, status });
    if (status === 200) webhook.pendingDelivery = false;
    return status === 200;
  }

  /** Queues deliveries of `topic` to every active webhook (Action Scheduler runs them later). */
  emit(topic: string, payload: () => unknown): void {
    for (const webhook of this.store.webhooks.values()) {
      if (webhook.status !== 'active' || webhook.topic !== topic) continue;
      const request = signedRequest(this.store, webhook, payload(), this.nowSeconds());
      const delivery = (async () => {
        const status = await this.post(webhook, request.headers, request.body);
        this.deliveries.push({ webhookId: webhook.id, url: webhook.deliveryUrl, ...request, status });
        const ok = typeof status === 'number' && status >= 200 && status < 300;
        webhook.failureCount = ok ? 0 : webhook.failureCount + 1;
        if (webhook.failureCount > MAX_FAILURES) webhook.status = 'disabled';
      })();
      this.pending.add(delivery);
      void delivery.finally(() => this.pending.delete(delivery));
    }
  }

  /** Waits until every queued delivery has been attempted. */
  async flush(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }
}
