/**
 * Reconciliation behind the webhooks: WooCommerce never retries a failed delivery
 * (includes/class-wc-webhook.php failed_delivery), so the gateway polls the orders changed since
 * its cursor (`GET wc/v3/orders?modified_after=`), by default every 5 minutes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wooSubject, type WooSubject } from './harness.js';

let subject: WooSubject;
beforeAll(async () => {
  subject = await wooSubject();
});
afterAll(() => subject?.close());

describe('orders changed since', () => {
  it('lists the orders modified after the cursor, oldest change first, with their references; every 5 minutes by default', async () => {
    expect(subject.adapter.orderPollSeconds).toBe(300);
    const { http } = subject.adapter;
    const roses = subject.sim.controls.idOf('bouquet_roses');
    const create = async (reference: string) =>
      (
        await http.rest<{ id: number }>('POST', 'orders', {
          data: { line_items: [{ product_id: roses, quantity: 1 }], meta_data: [{ key: '_proto_reference', value: reference }] },
        })
      ).body.id;
    const before = new Date(Date.now() - 60_000).toISOString();
    const first = await create('chk_a');
    const second = await create('chk_b');
    subject.sim.controls.setOrderStatus(first, 'processing');
    const changes = await subject.adapter.ordersChangedSince(before);
    expect(changes.map((c) => [c.orderId, c.reference]).sort()).toEqual([
      [String(first), 'chk_a'],
      [String(second), 'chk_b'],
    ]);
    expect([...changes].sort((a, b) => a.updatedAt.localeCompare(b.updatedAt))).toEqual(changes);
    expect(await subject.adapter.ordersChangedSince(new Date(Date.now() + 60_000).toISOString())).toEqual([]);
  });
});
