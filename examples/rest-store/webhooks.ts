/**
 * The reference store's outgoing webhooks, Stripe style: the JSON body is signed with the shared
 * secret as `X-Shop-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, with the
 * event id in `X-Shop-Event-Id`. Deliveries are retried a few times on failure, and every one is
 * kept (headers and raw body) so tests can replay or inspect them.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

export interface Delivery {
  id: string;
  type: string;
  headers: Record<string, string>;
  body: string;
  /** HTTP status of the last attempt; undefined while none answered (or no URL is set). */
  status?: number;
}

export interface WebhookOptions {
  url?: string;
  secret: string;
  now: () => number;
  /** Waits between attempts (3 attempts in all). */
  retryDelaysMs?: number[];
}

export function signWebhook(secret: string, body: string, unixSeconds: number): string {
  return `t=${unixSeconds},v1=${createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex')}`;
}

export class WebhookSender {
  readonly deliveries: Delivery[] = [];
  private readonly pending = new Set<Promise<void>>();

  private url: string | undefined;

  constructor(private readonly options: WebhookOptions) {
    this.url = options.url;
  }

  /** Sends later events to `url` (a receiver that started after the store). */
  deliverTo(url: string): void {
    this.url = url;
  }

  /** Signs and records an event, and sends it when a URL is configured. */
  send(type: string, data: Record<string, unknown>): Delivery {
    const id = `evt_${randomBytes(9).toString('base64url')}`;
    const now = this.options.now();
    const body = JSON.stringify({ id, type, created_at: new Date(now).toISOString(), data });
    const headers = {
      'content-type': 'application/json',
      'x-shop-event': type,
      'x-shop-event-id': id,
      'x-shop-signature': signWebhook(this.options.secret, body, Math.floor(now / 1000)),
    };
    const delivery: Delivery = { id, type, headers, body };
    this.deliveries.push(delivery);
    if (this.deliveries.length > 1000) this.deliveries.shift();
    if (this.url) {
      const sending = this.deliver(this.url, delivery).finally(() => this.pending.delete(sending));
      this.pending.add(sending);
    }
    return delivery;
  }

  private async deliver(url: string, delivery: Delivery): Promise<void> {
    const delays = this.options.retryDelaysMs ?? [200, 1000];
    for (let attempt = 0; ; attempt++) {
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: delivery.headers,
          body: delivery.body,
          signal: AbortSignal.timeout(5000),
        });
        delivery.status = response.status;
        await response.body?.cancel();
        if (response.ok) return;
      } catch {
        delivery.status = undefined;
      }
      const delay = delays[attempt];
      if (delay === undefined) return;
      await sleep(delay);
    }
  }

  /** Resolves when every delivery in flight has finished (shutdown, tests). */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }
}
