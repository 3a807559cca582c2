/**
 * The gateway's order page, the permalink of orders whose store has none: readable by whoever
 * holds the link, HTML-escaped, nothing beyond what the buyer should see, and a plain 404 for
 * any link the gateway did not hand out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permalinkFor } from '../../../src/capabilities/order/permalink.js';
import { GatewaySecret } from '../../../src/config/gateway-secret.js';
import { GATEWAY_SECRET, orderGateway, SIMULATION_SECRET, type OrderGateway } from '../../helpers/order-gateway.js';

let gw: OrderGateway;
beforeAll(async () => {
  gw = await orderGateway();
});
afterAll(() => gw.close());

const open = (url: string) => {
  const { host, pathname, search } = new URL(url);
  return gw.app.inject({ method: 'GET', url: `${pathname}${search}`, headers: { host } });
};
const simulate = (orderId: string, action: string, body: object = {}) =>
  gw.app.inject({
    method: 'POST',
    url: `/simulate/orders/${orderId}/${action}`,
    headers: { authorization: `Bearer ${SIMULATION_SECRET}` },
    payload: body,
  });

describe('the order page', () => {
  it("shows the buyer what was bought, each line's status, shipments with tracking, refunds and totals", async () => {
    const orderId = await gw.placeOrder();
    await simulate(orderId, 'ship', { lines: [{ id: 'l1', quantity: 3 }], trackingNumber: '1Z999AA1', carrier: 'UPS' });
    await simulate(orderId, 'refund', { amount: 1500, lines: [{ id: 'l2', quantity: 1 }], reason: 'One pot arrived broken' });
    const url = permalinkFor(gw, orderId);
    expect(url).toMatch(new RegExp(`^https://shop\\.example/order-status/${orderId}\\?t=[\\w-]{22}$`));

    const res = await open(url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers).toMatchObject({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', 'x-robots-tag': 'noindex' });
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    const page = res.body;
    expect(page).toContain(`Order <strong>${orderId}</strong>, placed Tue, 10 Mar 2026 12:00:00 UTC.`);
    expect(page).toContain(
      '<tr><td>Bouquet of Red Roses</td><td class="n">3</td><td class="n">3</td><td class="n">3</td><td>Sent</td>' +
        '<td class="n">$105.00</td></tr>',
    );
    expect(page).toContain('<tr><td>Ceramic Pot</td><td class="n">2</td><td class="n">1</td><td class="n">0</td><td>Processing</td>');
    expect(page).toContain(
      'Shipped, 3 × Bouquet of Red Roses · UPS · tracking <a href="https://flowers.example/store/tracking/1Z999AA1" ' +
        'rel="noopener noreferrer">1Z999AA1</a>',
    );
    expect(page).toContain('Refund (completed), 1 × Ceramic Pot · -$15.00 · One pot arrived broken');
    expect(page).toContain('<tr><td>Total</td><td class="n">$153.00</td></tr>');
    // The destination town, not the street: a link can be forwarded.
    expect(page).toContain('to Chicago, IL 60601, US');
    expect(page).not.toContain('123 Main St');
    expect(page).not.toContain(new URL(url).searchParams.get('t'));
  });

  it('escapes everything the store reports', async () => {
    const orderId = await gw.placeOrder();
    await simulate(orderId, 'ship', { carrier: '<script>alert("x")</script>', trackingNumber: '"><img src=x onerror=alert(1)>' });
    const page = (await open(permalinkFor(gw, orderId))).body;
    expect(page).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(page).not.toContain('<script>');
    expect(page).not.toContain('<img');
  });

  it("is a plain 404 without the right token: missing, altered, another order's, another secret's", async () => {
    const orderId = await gw.placeOrder();
    const other = await gw.placeOrder();
    const good = new URL(permalinkFor(gw, orderId));
    const token = good.searchParams.get('t')!;
    const forged = new URL(permalinkFor({ tenant: gw.tenant, secret: GatewaySecret.from(`${GATEWAY_SECRET}-other`) }, orderId));
    const attempts = [
      `https://shop.example/order-status/${orderId}`,
      `https://shop.example/order-status/${orderId}?t=${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`,
      `https://shop.example/order-status/${orderId}?t=${token}x`,
      `https://shop.example/order-status/${orderId}?t=${token}&t=${token}`,
      `https://shop.example/order-status/${other}?t=${token}`,
      forged.href,
    ];
    for (const url of attempts) {
      const res = await open(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body).toContain('<h1>Order not found</h1>');
      expect(res.body).not.toContain(orderId);
    }
  });

  it('is a 404 for an order the store no longer has', async () => {
    expect((await open(permalinkFor(gw, 'ord_gone'))).statusCode).toBe(404);
  });
});
