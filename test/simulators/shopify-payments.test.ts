/**
 * How an order is paid on Shopify, as the simulator models it (simulators/shopify/payments.ts):
 * manual payment methods and pending providers leave the order PENDING until it is marked as paid
 * or the provider confirms; manual capture leaves it AUTHORIZED; a failed 3-D Secure challenge or a
 * cancelled offsite payment places no order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startShopifySimulator, type ShopifySimulator } from '../../simulators/shopify/server.js';
import { CHICAGO, orderId, shopifyClient } from './shopify-client.js';

const ORDER = `query($id: ID!) { order(id: $id) {
  displayFinancialStatus paymentGatewayNames fullyPaid unpaid canMarkAsPaid capturable
  totalPriceSet { shopMoney { amount } } totalOutstandingSet { shopMoney { amount } }
  totalReceivedSet { shopMoney { amount } } totalCapturableSet { shopMoney { amount } } totalRefundedSet { shopMoney { amount } }
  transactions(first: 10) { kind status gateway manualPaymentGateway amountSet { shopMoney { amount } } parentTransaction { id } }
} }`;
const MARK_PAID = `mutation($id: ID!) { orderMarkAsPaid(input: { id: $id }) {
  order { displayFinancialStatus } userErrors { field message } } }`;

let sim: ShopifySimulator;
let client: ReturnType<typeof shopifyClient>;
beforeAll(async () => {
  sim = await startShopifySimulator();
  client = shopifyClient(sim);
});
afterAll(() => sim.close());

const roses = () => ({
  lines: [{ merchandiseId: client.variant('bouquet_roses'), quantity: 1 }],
  buyerIdentity: { email: 'ann@example.com', countryCode: 'US' },
  delivery: { addresses: [{ selected: true, address: { deliveryAddress: CHICAGO } }] },
});
const order = async (id: string) => (await client.admin(ORDER, { id })).body.data.order;
const topicsSince = (from: number) => sim.webhooks.deliveries.slice(from).map((d) => d.topic);

describe('Shopify simulator: payment at the store', () => {
  it('places an order paid by cash on delivery as PENDING, and PAID once marked as paid (orders/paid, orders/updated)', async () => {
    const cart = await client.cart(roses());
    const before = sim.webhooks.deliveries.length;
    const paid = await client.pay(cart.checkoutUrl, { payment: { type: 'manual', name: 'Cash on Delivery (COD)' } });
    expect(paid.status).toBe(200);
    const placed = await order(paid.order!.id);
    // 35 (shipping freed by the automatic "Free Shipping on Rose Bouquets") + Illinois 6.25 % of 35 = 2.19
    expect(placed).toMatchObject({
      displayFinancialStatus: 'PENDING',
      paymentGatewayNames: ['Cash on Delivery (COD)'],
      fullyPaid: false,
      unpaid: true,
      canMarkAsPaid: true,
      totalPriceSet: { shopMoney: { amount: '37.19' } },
      totalOutstandingSet: { shopMoney: { amount: '37.19' } },
      totalReceivedSet: { shopMoney: { amount: '0.0' } },
      transactions: [{ kind: 'SALE', status: 'PENDING', gateway: 'Cash on Delivery (COD)', manualPaymentGateway: true }],
    });
    expect(topicsSince(before)).toEqual(['orders/create']);
    expect(JSON.parse(sim.webhooks.deliveries.at(-1)!.body)).toMatchObject({ financial_status: 'pending', fulfillment_status: null });

    const marked = await client.admin(MARK_PAID, { id: paid.order!.id });
    expect(marked.body.data.orderMarkAsPaid).toEqual({ order: { displayFinancialStatus: 'PAID' }, userErrors: [] });
    expect(topicsSince(before)).toEqual(['orders/create', 'orders/paid', 'orders/updated']);
    expect(JSON.parse(sim.webhooks.deliveries.at(-1)!.body)).toMatchObject({ financial_status: 'paid' });
    expect(await order(paid.order!.id)).toMatchObject({
      displayFinancialStatus: 'PAID',
      fullyPaid: true,
      canMarkAsPaid: false,
      totalOutstandingSet: { shopMoney: { amount: '0.0' } },
      totalReceivedSet: { shopMoney: { amount: '37.19' } },
    });

    // Already paid: a user error, nothing recorded, no webhook.
    const count = sim.webhooks.deliveries.length;
    const again = await client.admin(MARK_PAID, { id: paid.order!.id });
    expect(again.body.data.orderMarkAsPaid.userErrors).toEqual([{ field: ['input', 'id'], message: 'Order cannot be marked as paid.' }]);
    expect((await order(paid.order!.id)).transactions).toHaveLength(2);
    expect(sim.webhooks.deliveries.length).toBe(count);
  });

  it('places no order when the 3-D Secure challenge fails, and a PAID one once the buyer passes it', async () => {
    const cart = await client.cart(roses());
    const orders = sim.orders.all().length;
    const failed = await client.pay(cart.checkoutUrl, { payment: { type: 'card', threeDSecure: 'fail' } });
    expect(failed.status).toBe(422);
    expect(failed.error).toMatch(/3-D Secure/);
    expect(sim.orders.all()).toHaveLength(orders);
    const still = await client.storefront('query($id: ID!) { cart(id: $id) { id totalQuantity } }', { id: cart.id });
    expect(still.body.data.cart).toEqual({ id: cart.id, totalQuantity: 1 });

    const passed = await client.pay(cart.checkoutUrl, { payment: { type: 'card', threeDSecure: 'pass' } });
    expect(await order(passed.order!.id)).toMatchObject({
      displayFinancialStatus: 'PAID',
      paymentGatewayNames: ['shopify_payments'],
      transactions: [{ kind: 'SALE', status: 'SUCCESS', gateway: 'shopify_payments', manualPaymentGateway: false }],
    });
  });

  it('keeps an offsite payment the provider has not confirmed PENDING until it settles; a cancelled one places no order', async () => {
    const cancelled = await client.cart(roses());
    const orders = sim.orders.all().length;
    expect((await client.pay(cancelled.checkoutUrl, { payment: { type: 'offsite', outcome: 'cancelled' } })).status).toBe(422);
    expect(sim.orders.all()).toHaveLength(orders);

    const cart = await client.cart(roses());
    const paid = await client.pay(cart.checkoutUrl, { payment: { type: 'offsite', provider: 'paypal', outcome: 'pending' } });
    expect(await order(paid.order!.id)).toMatchObject({
      displayFinancialStatus: 'PENDING',
      paymentGatewayNames: ['paypal'],
      transactions: [{ kind: 'SALE', status: 'PENDING', gateway: 'paypal' }],
    });
    const before = sim.webhooks.deliveries.length;
    expect((await client.control(`orders/${orderId(paid.order!.id)}/settle`)).status).toBe(200);
    expect((await order(paid.order!.id)).displayFinancialStatus).toBe('PAID');
    expect(topicsSince(before)).toEqual(['orders/paid', 'orders/updated']);
  });

  it('cancels an unpaid order as VOIDED, returning no money', async () => {
    const cart = await client.cart(roses());
    const paid = await client.pay(cart.checkoutUrl, { payment: { type: 'manual', name: 'Bank Deposit' } });
    expect((await client.control(`orders/${orderId(paid.order!.id)}/cancel`)).status).toBe(200);
    expect(await order(paid.order!.id)).toMatchObject({
      displayFinancialStatus: 'VOIDED',
      canMarkAsPaid: false,
      totalRefundedSet: { shopMoney: { amount: '0.0' } },
      totalOutstandingSet: { shopMoney: { amount: '0.0' } },
    });
  });
});

describe('Shopify simulator: a shop that captures payments manually', () => {
  it('authorizes card payments (AUTHORIZED), and marking as paid captures the authorization', async () => {
    const manual = await startShopifySimulator({ paymentCapture: 'manual' });
    try {
      const shop = shopifyClient(manual);
      const cart = await shop.cart({
        lines: [{ merchandiseId: shop.variant('bouquet_roses'), quantity: 1 }],
        delivery: { addresses: [{ selected: true, address: { deliveryAddress: CHICAGO } }] },
      });
      const paid = await shop.pay(cart.checkoutUrl);
      const read = async () => (await shop.admin(ORDER, { id: paid.order!.id })).body.data.order;
      expect(await read()).toMatchObject({
        displayFinancialStatus: 'AUTHORIZED',
        capturable: true,
        totalCapturableSet: { shopMoney: { amount: '37.19' } },
        transactions: [{ kind: 'AUTHORIZATION', status: 'SUCCESS' }],
      });
      expect(manual.webhooks.deliveries.map((d) => d.topic)).toEqual(['orders/create']);
      await shop.admin(MARK_PAID, { id: paid.order!.id });
      const captured = await read();
      expect(captured).toMatchObject({ displayFinancialStatus: 'PAID', capturable: false });
      expect(captured.transactions.map((t: any) => [t.kind, t.status, t.parentTransaction !== null])).toEqual([
        ['AUTHORIZATION', 'SUCCESS', false],
        ['CAPTURE', 'SUCCESS', true],
      ]);
    } finally {
      await manual.close();
    }
  });
});
