/**
 * Outbound webhooks as WooCommerce delivers them (plugins/woocommerce/includes/class-wc-webhook.php):
 * - a ping when a webhook is created active: a form post `webhook_id=<id>` without signature,
 *   answered with exactly 200 (anything else is reported as a failure);
 * - deliveries: the resource as the REST API renders it (`{id}` for deletions), JSON, with
 *   X-WC-Webhook-Source, -Topic, -Resource, -Event, -Signature (base64 HMAC-SHA256 of the raw
 *   body keyed with the secret), -ID and -Delivery-ID (wp_hash of webhook id + the current
 *   second: not unique per delivery), user agent "WooCommerce/x Hookshot (WordPress/y)";
 * - a 2xx resets the failure count; after more than 5 consecutive failures the webhook is disabled
 *   (`woocommerce_max_webhook_delivery_failures`); a failed delivery is never retried;
 * - deliveries are queued (Action Scheduler, `woocommerce_webhook_process_delivery`) and run after
 *   the request that caused them has been answered, never inside it: the REST client that
 *   created an order has its answer before the order's `order.created` reaches anyone. Every
 *   non-draft order is announced, whatever its status (WC_Webhook::is_valid_resource skips only
 *   draft and auto-draft orders), so a pending, unpaid order is announced too.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, createHmac } from 'node:crypto';
import { clockMs } from './faults.js';
import type { SimWebhook } from './model.js';
import type { WooStore } from './store.js';

const USER_AGENT = 'WooCommerce/10.2.0 Hookshot (WordPress/6.8.2)';
const MAX_FAILURES = 5;

export interface Delivery {
  webhookId: number;
  url: string;
  headers: Record<string, string>;
  body: string;
  status: number | 'error';
  /** When the store started sending it (clockMs), to compare with when a call was answered. */
  sentAt?: number;
}

function signature(body: string, secret: string): string {
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
  /** Deliveries queued by the request being handled, started once its answer is sent. */
  private readonly request = new AsyncLocalStorage<Array<() => void>>();
  private held = 0;
  /** Drops the next deliveries of these topics (a lost delivery: WooCommerce never retries it). */
  private readonly drops = new Map<string, number>();

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

  /**
   * Handles one HTTP request: the deliveries it queues start when `answered` settles (its response
   * sent), as Action Scheduler runs them in a later request.
   */
  duringRequest<T>(answered: Promise<unknown>, handle: () => Promise<T>): Promise<T> {
    const queued: Array<() => void> = [];
    void answered.finally(() => {
      this.held -= queued.length;
      for (const start of queued.splice(0)) start();
    });
    return this.request.run(queued, handle);
  }

  /** The next `times` deliveries of `topic` are lost on the way (the receiver never sees them). */
  drop(topic: string, times = 1): void {
    this.drops.set(topic, (this.drops.get(topic) ?? 0) + times);
  }

  /** Queues deliveries of `topic` to every active webhook; the payload is read when each is sent. */
  emit(topic: string, payload: () => unknown): void {
    for (const webhook of this.store.webhooks.values()) {
      if (webhook.status !== 'active' || webhook.topic !== topic) continue;
      const start = () => {
        const request = signedRequest(this.store, webhook, payload(), this.nowSeconds());
        const lost = (this.drops.get(topic) ?? 0) > 0;
        if (lost) this.drops.set(topic, this.drops.get(topic)! - 1);
        const sentAt = clockMs();
        const delivery = (async () => {
          const status = lost ? 'error' : await this.post(webhook, request.headers, request.body);
          this.deliveries.push({ webhookId: webhook.id, url: webhook.deliveryUrl, ...request, status, sentAt });
          // log_delivery: 2xx, 301 and 302 count as delivered.
          const ok = typeof status === 'number' && status >= 200 && status < 303;
          webhook.failureCount = ok ? 0 : webhook.failureCount + 1;
          if (webhook.failureCount > MAX_FAILURES) webhook.status = 'disabled';
        })();
        this.pending.add(delivery);
        void delivery.finally(() => this.pending.delete(delivery));
      };
      const queued = this.request.getStore();
      if (queued) {
        queued.push(start);
        this.held += 1;
      } else start();
    }
  }

  /** Waits until every queued delivery has been attempted (those held by a request once it is answered). */
  async flush(): Promise<void> {
    while (this.pending.size || this.held) {
      if (this.pending.size) await Promise.all([...this.pending]);
      else await new Promise((resolve) => setImmediate(resolve));
    }
  }
}
