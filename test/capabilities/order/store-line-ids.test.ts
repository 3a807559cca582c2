/**
 * A store that keeps only its own line ids and SKUs (not the checkout's line ids): the order the
 * platform reads (get_order) and is sent (the `order created` webhook) still names each line by
 * its checkout line id, in lines and in expectations, since the gateway kept the checkout's lines
 * with the order record. Here the demo store's orders are rewritten to store line ids.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Adapter, OrderSnapshot } from '../../../adapters/contract.js';
import { checkoutGateway, line, pay, walkToReady, type CheckoutGateway } from '../checkout/checkout-gateway.js';
import { tenantKeyring } from '../../helpers/order-gateway.js';
import { platformProfile, startPlatform } from '../../helpers/platform.js';
import { startReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver.js';
import { getOrder } from './order-client.js';

const API_KEY = 'pk_store_line_ids_platform_9Wq3';

/** The order with the store's own line ids (`sl-1`, ...) and no checkout line id. */
function storeLineIds(order: OrderSnapshot): OrderSnapshot {
  const ids = new Map(order.lines.map((l, i) => [l.id, `sl-${i + 1}`]));
  const rename = (lines: Array<{ id: string; quantity: number }>) => lines.map((l) => ({ ...l, id: ids.get(l.id) ?? l.id }));
  return {
    ...order,
    lines: order.lines.map(({ checkoutLineId: _, ...l }) => ({ ...l, id: ids.get(l.id)! })),
    expectations: order.expectations.map((e) => ({ ...e, lines: rename(e.lines) })),
  };
}

const onlyStoreIds = (adapter: Adapter): Adapter =>
  Object.assign(Object.create(adapter) as Adapter, {
    getOrder: async (id: string) => {
      const order = await adapter.getOrder(id);
      return order && storeLineIds(order);
    },
  });

let gw: CheckoutGateway;
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startReceiver();
  const platform = await startPlatform();
  const profile = platformProfile();
  profile.proto.capabilities['dev.proto.shopping.order'] = [
    { version: '2026-04-08', config: { webhook_url: receiver.url() } } as { version: string },
  ];
  platform.serve('/.well-known/proto', profile);
  const sha256 = createHash('sha256').update(API_KEY).digest('hex');
  gw = await checkoutGateway({
    platform,
    wrapAdapter: onlyStoreIds,
    tenant: { auth: { api_keys: [{ sha256, profile: platform.url() }] } },
    gateway: { webhooks: { pollMs: 5 }, keyring: await tenantKeyring() },
  });
});
afterAll(async () => {
  await gw.close();
  await receiver.close();
});

describe('order lines of a store that keeps only its own line ids', () => {
  it('carry the checkout line ids in get_order and in the order created webhook', async () => {
    const rest = gw.client('rest');
    const { ready } = await walkToReady(rest, [line('bouquet_roses', 1), line('pot_ceramic', 2)]);
    const checkoutIds = ready.line_items.map((l: { id: string; item: { id: string } }) => [l.item.id, l.id]);
    const done = (await rest.complete(ready.id, pay())).body;
    expect(done.status).toBe('completed');

    const order = (await getOrder(gw, 'rest', done.order.id, gw.platform, { 'x-api-key': API_KEY })).body;
    expect(order.line_items.map((l: { id: string; item: { id: string } }) => [l.item.id, l.id])).toEqual(checkoutIds);
    const ids = checkoutIds.map(([, id]: string[]) => id).sort();
    expect(order.fulfillment.expectations.flatMap((e: any) => e.line_items.map((l: any) => l.id)).sort()).toEqual(ids);

    const [webhook] = await receiver.waitFor(1);
    expect(
      JSON.parse(webhook!.body)
        .line_items.map((l: { id: string }) => l.id)
        .sort(),
    ).toEqual(ids);
  });
});
