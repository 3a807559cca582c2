/**
 * Fidelity: an order placed on Shopify's checkout need not be paid. `Order.displayFinancialStatus`
 * (Admin 2026-10, `OrderDisplayFinancialStatus`) is PENDING for a manual payment method (bank
 * deposit, cash on delivery, money order: "Orders that accept manual payments are marked as
 * unpaid", help.shopify.com/manual/payments/manual-payments) or a provider that needs time, and
 * AUTHORIZED when the shop captures manually (the buyer's money is held: the capture is the
 * merchant's). Shopify announces the order with orders/create either way, and the payment later
 * with orders/paid and orders/updated. A handed-off checkout completes once the buyer has paid,
 * never while the store still waits for the money (docs/adapter-contract.md, `awaitingPayment`).
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentMethod } from '../../../../simulators/shopify/payments.js';
import { testGateway, type TestGateway } from '../../../helpers/gateway.js';
import { shopifySetup, type ShopifySetup } from '../helpers.js';

const BUYER = { email: 'ann@example.com', first_name: 'Ann', last_name: 'Lee' };
const CHICAGO = {
  street_address: '233 S Wacker Dr',
  address_locality: 'Chicago',
  address_region: 'IL',
  address_country: 'US',
  postal_code: '60606',
};

describe.each([{ capture: 'automatic' as const }, { capture: 'manual' as const }])(
  'Shopify fidelity: payment at the store ($capture capture)',
  ({ capture }) => {
    let s: ShopifySetup;
    let gw: TestGateway;

    beforeAll(async () => {
      s = await shopifySetup({ simulator: { paymentCapture: capture } });
      gw = await testGateway({ adapter: s.adapter, tenant: { adapter: { type: 'shopify', settings: {} }, payment_handlers: [] } });
      await gw.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = gw.app.server.address() as AddressInfo;
      await s.adapter.registerWebhooks(`http://127.0.0.1:${port}/webhooks/backend`);
    });
    afterAll(async () => {
      await gw.close();
      await s.close();
    });

    const call = async (method: 'POST' | 'PUT' | 'GET', url: string, body?: unknown) => {
      const res = await gw.app.inject({ method, url, headers: gw.headers(), ...(body !== undefined && { payload: JSON.stringify(body) }) });
      return res.json();
    };

    /** A checkout of one rose bouquet to Chicago, handed off to Shopify's checkout: its id and the checkout page. */
    async function handedOff(): Promise<{ id: string; url: string }> {
      const roses = s.sim.shop.ids.gid('ProductVariant', 'bouquet_roses');
      const created = await call('POST', '/checkout-sessions', { line_items: [{ item: { id: roses }, quantity: 1 }], buyer: BUYER });
      const lines = created.line_items.map((l: any) => ({ id: l.id, item: { id: l.item.id }, quantity: l.quantity }));
      const update = (fulfillment: unknown) =>
        call('PUT', `/checkout-sessions/${created.id}`, { line_items: lines, buyer: BUYER, fulfillment });
      const method = (await update({ methods: [{ type: 'shipping', destinations: [CHICAGO] }] })).fulfillment.methods[0];
      const group = method.groups[0];
      await update({
        methods: [
          {
            id: method.id,
            type: 'shipping',
            destinations: method.destinations,
            groups: [{ id: group.id, selected_option_id: group.options[0].id }],
          },
        ],
      });
      const escalated = await call('POST', `/checkout-sessions/${created.id}/complete`, {});
      expect(escalated.status).toBe('requires_escalation');
      return { id: created.id, url: escalated.continue_url };
    }

    const statusOf = async (id: string) => (await call('GET', `/checkout-sessions/${id}`)).status as string;

    it.each<[string, PaymentMethod, 'mark-paid' | 'settle']>([
      ['a bank deposit', { type: 'manual', name: 'Bank Deposit' }, 'mark-paid'],
      ['cash on delivery', { type: 'manual', name: 'Cash on Delivery (COD)' }, 'mark-paid'],
      ['an offsite provider that confirms later', { type: 'offsite', provider: 'paypal', outcome: 'pending' }, 'settle'],
    ])('an order paid by %s completes the checkout once Shopify has the money, not before', async (_, payment, paid) => {
      const { id, url } = await handedOff();
      const order = await s.sim.pay(url, { payment });
      expect(s.sim.orders.financialStatus(order)).toBe('PENDING');
      expect(await statusOf(id)).toBe('requires_escalation');
      await expect(s.adapter.getOrder(order.id.split('/').at(-1)!)).resolves.toMatchObject({ awaitingPayment: true });

      if (paid === 'mark-paid') await s.sim.orders.markAsPaid(order.id);
      else await s.sim.orders.settle(order.id);
      expect(s.sim.orders.financialStatus(order)).toBe('PAID');
      const completed = await call('GET', `/checkout-sessions/${id}`);
      expect(completed).toMatchObject({ status: 'completed', order: { id: order.id.split('/').at(-1) } });
    });

    it('an unpaid order cancelled by the merchant never completes the checkout', async () => {
      const { id, url } = await handedOff();
      const order = await s.sim.pay(url, { payment: { type: 'manual', name: 'Money Order' } });
      await s.sim.orders.cancel(order.id);
      expect(s.sim.orders.financialStatus(order)).toBe('VOIDED');
      expect(await statusOf(id)).toBe('requires_escalation');
    });

    const cardStatus = capture === 'manual' ? 'AUTHORIZED: the capture is the merchant’s' : 'PAID';
    it(`a card payment completes the checkout at once (${cardStatus})`, async () => {
      const { id, url } = await handedOff();
      const order = await s.sim.pay(url, { payment: { type: 'card' } });
      expect(s.sim.orders.financialStatus(order)).toBe(capture === 'manual' ? 'AUTHORIZED' : 'PAID');
      expect(await statusOf(id)).toBe('completed');
    });
  },
);
