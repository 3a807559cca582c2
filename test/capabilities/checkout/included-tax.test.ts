/**
 * A store whose prices include tax (the demo store with `prices_include_tax`): the checkout and
 * the order show the tax the prices contain as sub-lines of the `total` entry (its display text
 * naming the tax, the rest "before tax"), never as an amount added to the total, so the totals
 * still add up for a platform that checks them (upstream 2026-04-08: the entries other than
 * `total` sum to it). A store whose prices exclude tax shows its `tax` entry as before.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutGateway, line, pay, walkToReady, type CheckoutGateway } from './checkout-gateway.js';
import { startPlatform } from '../../helpers/platform.js';
import { getOrder } from '../order/order-client.js';

const API_KEY = 'pk_included_tax_platform_4Rt8';

const sumOfEntries = (totals: Array<{ type: string; amount: number }>) =>
  totals.filter((t) => t.type !== 'total').reduce((s, t) => s + t.amount, 0);

describe('prices that include tax', () => {
  let gw: CheckoutGateway;
  beforeAll(async () => {
    // get_order needs an authenticated caller: the platform that completed, by its key.
    const platform = await startPlatform();
    const sha256 = createHash('sha256').update(API_KEY).digest('hex');
    gw = await checkoutGateway({
      platform,
      demo: { pricesIncludeTax: true },
      tenant: { auth: { api_keys: [{ sha256, profile: platform.url() }] } },
    });
  });
  afterAll(() => gw.close());

  it('the checkout shows the included tax under the total, with its display text, adding nothing', async () => {
    const rest = gw.client('rest');
    // Two ceramic pots (30.00) shipped to Chicago: 3000 contains 176 of Illinois sales tax (6.25 %).
    const { ready } = await walkToReady(rest, [line('pot_ceramic', 2)]);
    expect(ready.status).toBe('ready_for_complete');
    const total = ready.totals.find((t: { type: string }) => t.type === 'total');
    expect(total.amount).toBe(3000 + ready.totals.find((t: { type: string }) => t.type === 'fulfillment').amount);
    expect(ready.totals.map((t: { type: string }) => t.type)).not.toContain('tax');
    expect(total.lines).toEqual([
      { display_text: 'Before tax', amount: total.amount - 176 },
      { display_text: 'Illinois sales tax (included)', amount: 176 },
    ]);
    expect(sumOfEntries(ready.totals)).toBe(total.amount);

    const completed = (await rest.complete(ready.id, pay())).body;
    expect(completed.status).toBe('completed');
    const order = (await getOrder(gw, 'rest', completed.order.id, gw.platform, { 'x-api-key': API_KEY })).body;
    const orderTotal = order.totals.find((t: { type: string }) => t.type === 'total');
    expect(orderTotal).toEqual({ type: 'total', amount: total.amount, lines: total.lines.map((l: object) => l) });
    expect(order.totals.map((t: { type: string }) => t.type)).not.toContain('tax');
    expect(sumOfEntries(order.totals)).toBe(orderTotal.amount);
  });
});

describe('prices that exclude tax', () => {
  let gw: CheckoutGateway;
  beforeAll(async () => {
    gw = await checkoutGateway();
  });
  afterAll(() => gw.close());

  it('add the tax as the `tax` entry, and the total has no sub-lines', async () => {
    const { ready } = await walkToReady(gw.client('rest'), [line('pot_ceramic', 2)]);
    expect(ready.totals.find((t: { type: string }) => t.type === 'tax')).toEqual({ type: 'tax', amount: 188 });
    expect(ready.totals.find((t: { type: string }) => t.type === 'total').lines).toBeUndefined();
    expect(sumOfEntries(ready.totals)).toBe(ready.totals.find((t: { type: string }) => t.type === 'total').amount);
  });
});
