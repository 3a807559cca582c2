/**
 * Creates the store's webhooks for a tenant, idempotently: one per topic the gateway listens to,
 * delivering to the tenant's `POST {base_url}/webhooks/backend`, signed with the tenant's webhook
 * secret. A webhook that already delivers a topic there is kept; a paused or disabled one (the
 * store disables a webhook after repeated failed deliveries) is re-activated, and its secret is
 * set again (the API never shows a secret, so it cannot be compared). Creating a webhook makes
 * the store send its ping, which the gateway answers 200.
 */
import { unexpected, type WooHttp } from './http.js';
import { expectShape, WcWebhook, WcWebhooks } from './wc-shapes.js';

export const WEBHOOK_TOPICS = ['order.created', 'order.updated', 'order.deleted', 'product.updated', 'product.deleted'] as const;

export interface WebhookOutcome {
  topic: string;
  id: number;
  action: 'created' | 'kept' | 'reactivated';
}

/** Every webhook the store holds, page by page. */
export async function listWebhooks(http: WooHttp, signal?: AbortSignal): Promise<WcWebhook[]> {
  const existing = [];
  for (let page = 1, pages = 1; page <= pages; page++) {
    const response = await http.rest('GET', 'webhooks', { params: { per_page: 100, page } }, signal);
    if (response.status !== 200) throw unexpected('GET wc/v3/webhooks', response.body);
    existing.push(...expectShape(WcWebhooks, response.body, 'GET wc/v3/webhooks'));
    pages = Number(response.headers['x-wp-totalpages'] ?? 1);
  }
  return existing;
}

export async function registerWebhooks(
  http: WooHttp,
  options: { deliveryUrl: string; secret: string; name: string; progress?: (line: string) => void },
  signal?: AbortSignal,
): Promise<WebhookOutcome[]> {
  const existing = await listWebhooks(http, signal);
  const outcomes: WebhookOutcome[] = [];
  for (const topic of WEBHOOK_TOPICS) {
    const found = existing.find((w) => w.topic === topic && w.delivery_url === options.deliveryUrl);
    if (found && found.status === 'active') {
      outcomes.push({ topic, id: found.id, action: 'kept' });
    } else if (found) {
      const response = await http.rest('PUT', `webhooks/${found.id}`, { data: { status: 'active', secret: options.secret } }, signal);
      if (response.status !== 200) throw unexpected(`PUT wc/v3/webhooks/${found.id}`, response.body);
      outcomes.push({ topic, id: found.id, action: 'reactivated' });
    } else {
      const data = {
        name: `${options.name} (${topic})`,
        topic,
        delivery_url: options.deliveryUrl,
        secret: options.secret,
        status: 'active',
      };
      const response = await http.rest('POST', 'webhooks', { data }, signal);
      if (response.status !== 201 && response.status !== 200) throw unexpected('POST wc/v3/webhooks', response.body);
      outcomes.push({ topic, id: expectShape(WcWebhook, response.body, 'POST wc/v3/webhooks').id, action: 'created' });
    }
    const last = outcomes.at(-1)!;
    options.progress?.(`${last.topic}: webhook ${last.id} ${last.action}`);
  }
  return outcomes;
}
