/** The outbox tool shows each dead letter's destination as it was stored (without credentials, query or fragment). */
import { describe, expect, it } from 'vitest';
import { run } from '../../scripts/outbox.js';
import { MemoryStore } from '../../src/state/memory-store.js';
import type { OrderEvent } from '../../src/capabilities/order/order-event.js';
import { orderWebhookQueue } from '../../src/capabilities/order/outbox.js';

async function deadLetterTo(store: MemoryStore, id: string, webhookUrl: string): Promise<void> {
  const queue = orderWebhookQueue(store, 'shop');
  const event = {
    id,
    kind: 'order_created',
    tenantId: 'shop',
    occurredAt: 0,
    webhookUrl,
    businessProfile: 'https://shop.example/.well-known/proto',
    checkoutId: 'chk_1',
    order: { id: `ord_${id}` },
  };
  await queue.enqueue({ id, payload: event as unknown as OrderEvent });
  const [job] = await queue.claim(1, 60_000);
  await queue.deadLetter(job!, 'refused');
}

describe('npm run outbox -- list', () => {
  it('shows the stored URL, not an origin of "null"', async () => {
    const store = new MemoryStore();
    await deadLetterTo(store, 'evt_file', 'file:///etc/passwd');
    await deadLetterTo(store, 'evt_token', 'https://user:pass@agent.example/hooks?token=secret#x');
    await deadLetterTo(store, 'evt_junk', 'not a url?token=secret');
    const out: string[] = [];
    expect(await run(['list'], { out: (l) => out.push(l), err: () => undefined }, store, () => ['shop'])).toBe(0);
    const destinations = out.map((line) => /to=(.*?) {2}reason=/.exec(line)?.[1]);
    expect(destinations).toEqual(['file:///etc/passwd', 'https://agent.example/hooks', '"not a url"']);
    await store.close();
  });
});
