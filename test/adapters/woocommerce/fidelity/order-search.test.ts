/**
 * Fidelity of finding an order by its reference with `GET /wc/v3/orders`, as WooCommerce filters
 * it (woocommerce/woocommerce plugins/woocommerce/includes/rest-api/Controllers/Version3/
 * class-wc-rest-crud-controller.php prepare_objects_query; WordPress wp-includes/class-wp-date-query.php;
 * the simulator's order-query.ts and site-time.ts):
 * - `after` is compared with the site-local creation date unless `dates_are_gmt` is set, and a
 *   value without an offset is read as the site's wall clock: a UTC time sent bare, west of UTC,
 *   lies hours ahead and finds no order just placed;
 * - `search` never reads custom meta, so the reference is matched in the orders read, every page
 *   of them (`per_page` at most 100, X-WP-TotalPages);
 * - `POST /wc/v3/orders` is not idempotent: a retry creates a second order.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { wooSubject, type WooSubject } from '../harness.js';
import { gatewayCharged, ordersOf, readyCheckout } from './checkouts.js';
import { loseNextAnswer } from './store-api.js';

let subject: WooSubject | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await subject?.close();
  subject = undefined;
});

describe.each(['America/New_York', 'America/Los_Angeles', 'UTC', 'Asia/Tokyo'])('a store whose time zone is %s', (timezone) => {
  it('gateway_charged: the order whose creation answer was lost is found and marked paid on the retry, never a second one', async () => {
    let clock = Date.now();
    subject = await wooSubject({ simulator: { timezone }, now: () => clock });
    const ready = await readyCheckout(subject);
    loseNextAnswer('rest', /^orders$/);
    await expect(subject.adapter.placeOrder(gatewayCharged(ready, 'chk_tz'))).rejects.toThrow(/lost/);
    const [created] = ordersOf(subject, 'chk_tz');
    expect(created!.status).toBe('pending');
    // Unpaid, it is not the placement yet.
    expect(await subject.adapter.findOrderByReference('chk_tz')).toBeNull();

    clock += 3 * 60_000;
    const placed = await subject.adapter.placeOrder(gatewayCharged(ready, 'chk_tz'));
    expect(placed).toMatchObject({ status: 'placed', orderId: String(created!.id) });
    expect(ordersOf(subject, 'chk_tz').map((o) => [o.status, o.transactionId])).toEqual([['processing', 'txn_chk_tz']]);
  });

  it('gateway_charged: an order marked paid whose answer was lost is the placement, found by reference', async () => {
    subject = await wooSubject({ simulator: { timezone } });
    const ready = await readyCheckout(subject);
    loseNextAnswer('rest', /^orders\/\d+$/);
    await expect(subject.adapter.placeOrder(gatewayCharged(ready, 'chk_paid'))).rejects.toThrow(/lost/);
    const [paid] = ordersOf(subject, 'chk_paid');
    expect(paid!.status).toBe('processing');
    expect(await subject.adapter.findOrderByReference('chk_paid')).toMatchObject({ orderId: String(paid!.id) });
    expect(await subject.adapter.placeOrder(gatewayCharged(ready, 'chk_paid'))).toMatchObject({
      status: 'placed',
      orderId: String(paid!.id),
    });
    expect(ordersOf(subject, 'chk_paid')).toHaveLength(1);
  });
});

it('reads every page of the orders created since the claim: the reference is matched in them, not searched', async () => {
  subject = await wooSubject();
  const ready = await readyCheckout(subject);
  loseNextAnswer('rest', /^orders\/\d+$/);
  await expect(subject.adapter.placeOrder(gatewayCharged(ready, 'chk_busy'))).rejects.toThrow(/lost/);
  // A busy store: 120 orders placed after it, so it is on the second page (newest first).
  const rosesId = subject.sim.controls.idOf('bouquet_roses');
  for (let i = 0; i < 120; i++) {
    await subject.adapter.http.rest('POST', 'orders', { data: { line_items: [{ product_id: rosesId, quantity: 1 }] } });
  }
  const [ours] = ordersOf(subject, 'chk_busy');
  subject.sim.controls.resetCalls();
  expect(await subject.adapter.findOrderByReference('chk_busy')).toMatchObject({ orderId: String(ours!.id) });
  expect(subject.sim.controls.calls().filter((c) => c.route === '/wc/v3/orders')).toHaveLength(2);
});
