/**
 * Fidelity of the REST API calls around orders (woocommerce/woocommerce plugins/woocommerce/
 * includes/rest-api/Controllers/Version2/class-wc-rest-system-status-v2-controller.php,
 * Version3/class-wc-rest-orders-controller.php, Version3/class-wc-rest-crud-controller.php; the
 * simulator's rest-api.ts):
 * - System Status answers the store's currency and price decimals in `settings`;
 * - `PUT /orders/{id}` sets a status; a handed-off checkout that changes gets a new pending order
 *   and the superseded one is cancelled, while one the buyer already paid is left alone.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { wooSubject, type WooSubject } from '../harness.js';
import { rosesRequest } from './checkouts.js';

let subject: WooSubject | undefined;
afterEach(async () => {
  await subject?.close();
  subject = undefined;
});

describe('GET wc/v3/system_status (settings)', () => {
  it('the store’s currency is read at start-up and again on the readiness probe', async () => {
    subject = await wooSubject();
    const before = await subject.adapter.quote(rosesRequest(subject));
    expect(before.currency).toBe('USD');
    subject.sim.store.settings.currency = 'CAD';
    await subject.adapter.ping();
    expect((await subject.adapter.quote(rosesRequest(subject))).currency).toBe('CAD');
  });
});

describe('PUT wc/v3/orders/{id} (a handed-off checkout’s pending order)', () => {
  it('a changed checkout gets a new pending order and the superseded one is cancelled', async () => {
    subject = await wooSubject();
    const open = await subject.adapter.quote(rosesRequest(subject));
    const rate = open.fulfillment![0]!.groups[0]!.options[0]!.id;
    const first = rosesRequest(subject, rate, open.handle);
    const page = await subject.adapter.checkoutUrl({ reference: 'chk_handoff', quote: first, handle: open.handle! });
    const firstId = Number(/order-pay\/(\d+)\//.exec(page.url)![1]);
    const changed = rosesRequest(subject, rate, open.handle, 3);
    const next = await subject.adapter.checkoutUrl({ reference: 'chk_handoff', quote: changed, handle: open.handle! });
    const nextId = Number(/order-pay\/(\d+)\//.exec(next.url)![1]);
    expect(nextId).not.toBe(firstId);
    expect(subject.sim.store.orders.get(firstId)!.status).toBe('cancelled');
    expect(subject.sim.store.orders.get(nextId)!.status).toBe('pending');
  });
});
