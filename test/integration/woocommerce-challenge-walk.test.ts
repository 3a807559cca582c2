/**
 * A WooCommerce store that charges the card itself (store_charged) and whose gateway asks the
 * buyer to confirm (3-D Secure): the Store API checkout answers success with a redirect to the
 * order's payment page and leaves the order pending (Legacy::process_legacy_payment, the
 * simulator's payment-page.ts). Through the gateway, end to end:
 * - complete answers requires_escalation with that page and `buyer_action_required`; the buyer
 *   approves on the store's page, the store's webhook brings the paid order, the checkout
 *   completes by itself and the platform gets `order created`; a repeated complete returns that
 *   order and charges nothing;
 * - a challenge the buyer fails on the page, or abandons, leaves the checkout to another card:
 *   the store pays that same order, one order for the checkout;
 * - a store without the must-use plugin whose order could not take the reference afterwards: the
 *   challenge named the order id as its store reference, and the paid order reports it, so the
 *   webhook still completes the checkout.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerWebhooks } from '../../adapters/woocommerce/webhook-setup.js';
import { choosingFirstOptions } from '../../bench/checkout-bodies.js';
import { GatewaySecret } from '../../src/config/gateway-secret.js';
import { testGateway, type TestGateway } from '../helpers/gateway.js';
import { platformProfile } from '../helpers/platform.js';
import { startReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { tenantKeyring } from '../helpers/order-gateway.js';
import { WEBHOOK_SECRET, wooSubject, type WooSubject } from '../adapters/woocommerce/harness.js';
import { bodyOf } from '../webhooks/platform-side.js';

const CHICAGO = {
  first_name: 'Ann',
  last_name: 'Lee',
  street_address: '123 Main St',
  address_locality: 'Chicago',
  address_region: 'IL',
  address_country: 'US',
  postal_code: '60601',
};
const BUYER = { email: 'ann@example.com', first_name: 'Ann', last_name: 'Lee' };
const PROFILE = '/profiles/woo-challenge';

const card = (token: string) => ({
  payment: {
    instruments: [{ id: 'i1', handler_id: 'woo-card', type: 'card', selected: true, credential: { type: 'card', token } }],
  },
});

/** The buyer on the store's "Pay for order" page: approves the challenge (a good card) or fails it. */
const onStorePage = (url: string, token: string) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `payment_method=simulated_card&token=${token}`,
    redirect: 'manual',
  });

/** Prices entered without tax, or with it (the included tax shown under the total, as in the walks). */
const TAX_MODES = {
  exclusive: {},
  inclusive: { pricesIncludeTax: true, taxDisplayCart: 'incl' as const },
};

describe.each(['exclusive', 'inclusive'] as const)(
  'a WooCommerce card challenge through the gateway (store_charged), prices %s of tax',
  (tax) => {
    let woo: WooSubject;
    let gw: TestGateway;
    let receiver: WebhookReceiver;

    beforeAll(async () => {
      receiver = await startReceiver();
      woo = await wooSubject({ simulator: TAX_MODES[tax] });
      gw = await testGateway({
        adapter: woo.adapter,
        keyring: await tenantKeyring(),
        secret: GatewaySecret.from('woo-challenge-gateway-secret-0123456789ab'),
        webhooks: { pollMs: 5 },
        tenant: {
          adapter: { type: 'woocommerce', settings: { store_url: woo.sim.url }, finishing: 'store_charged' },
          payment_handlers: [{ id: 'woo-card', name: 'dev.proto.payments.store', type: 'store', instruments: ['card'] }],
        },
      });
      const profile = platformProfile();
      profile.proto.capabilities['dev.proto.shopping.order'] = [
        { version: '2026-04-08', config: { webhook_url: receiver.url() } } as { version: string },
      ];
      gw.platform.serve(PROFILE, profile);
      await gw.app.listen({ port: 0, host: '127.0.0.1' });
      const address = gw.app.server.address() as { port: number };
      await registerWebhooks(woo.adapter.http, {
        deliveryUrl: `http://127.0.0.1:${address.port}/webhooks/backend`,
        secret: WEBHOOK_SECRET,
        name: 'Proto gateway',
      });
    });

    afterAll(async () => {
      await gw?.close();
      await woo?.close();
      await receiver?.close();
    });

    const call = async (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) => {
      const res = await gw.app.inject({
        method,
        url,
        headers: gw.headers({ 'proto-agent': gw.platform.agent(PROFILE), 'idempotency-key': randomUUID() }),
        ...(body !== undefined && { payload: JSON.stringify(body) }),
      });
      return { status: res.statusCode, body: res.json() };
    };

    /** Roses to Chicago, the first rate chosen: ready to complete. */
    async function readyCheckout() {
      const roses = String(woo.sim.controls.idOf('bouquet_roses'));
      const created = await call('POST', '/checkout-sessions', {
        line_items: [{ item: { id: roses }, quantity: 2 }],
        buyer: BUYER,
        fulfillment: { methods: [{ type: 'shipping', destinations: [CHICAGO] }] },
      });
      expect(created.status).toBe(201);
      const ready = await call('PUT', `/checkout-sessions/${created.body.id}`, { ...choosingFirstOptions(created.body), buyer: BUYER });
      expect(ready.body.status).toBe('ready_for_complete');
      return ready.body;
    }

    const ordersOf = (checkoutId: string) =>
      [...woo.sim.store.orders.values()].filter((o) => o.meta.some((m) => m.key === '_proto_reference' && m.value === checkoutId));

    it("sends the buyer to the store's payment page; approved there, the store's webhook completes it with order created", async () => {
      const ready = await readyCheckout();
      const escalated = (await call('POST', `/checkout-sessions/${ready.id}/complete`, card('action_token'))).body;
      expect(escalated.status).toBe('requires_escalation');
      const [waiting] = ordersOf(ready.id);
      expect(waiting).toMatchObject({ status: 'pending', datePaid: null });
      expect(escalated.continue_url).toBe(`${woo.sim.url}/checkout/order-pay/${waiting!.id}/?key=${waiting!.orderKey}`);
      expect(escalated.messages.map((m: { code: string; severity: string }) => [m.code, m.severity])).toEqual([
        ['buyer_action_required', 'requires_buyer_input'],
      ]);
      expect(receiver.received).toEqual([]);

      expect((await onStorePage(escalated.continue_url, 'success_token')).status).toBe(302);
      await woo.sim.controls.flushWebhooks();
      const [created] = await receiver.waitFor(1);
      const event = bodyOf(created!);
      expect(event.id).toBe(String(waiting!.id));
      const totalEntry = (totals: Array<{ type: string }>) => totals.find((t) => t.type === 'total');
      expect(totalEntry(event.totals)).toEqual(totalEntry(ready.totals));
      expect(Boolean((totalEntry(ready.totals) as { lines?: unknown }).lines)).toBe(tax === 'inclusive');
      const completed = (await call('GET', `/checkout-sessions/${ready.id}`)).body;
      expect([completed.status, completed.order.id]).toEqual(['completed', String(waiting!.id)]);

      const repeated = (await call('POST', `/checkout-sessions/${ready.id}/complete`, card('success_token'))).body;
      expect([repeated.messages.map((m: { code: string }) => m.code), repeated.order.id]).toEqual([
        ['checkout_completed'],
        String(waiting!.id),
      ]);
      expect(ordersOf(ready.id).map((o) => [o.id, o.status])).toEqual([[waiting!.id, 'processing']]);
      expect(receiver.received).toHaveLength(1);
    });

    it('without the must-use plugin and the reference never written, the order is matched by its id (the store reference)', async () => {
      woo.sim.controls.settings.referenceSnippet = false;
      try {
        const before = receiver.received.length;
        const ready = await readyCheckout();
        woo.sim.controls.fail({ kind: 'server_error', times: 5, match: /^\/wc\/v3\/orders\/\d+$/ });
        const escalated = (await call('POST', `/checkout-sessions/${ready.id}/complete`, card('action_token'))).body;
        woo.sim.controls.clearFaults();
        expect(escalated.status).toBe('requires_escalation');
        const orderId = /order-pay\/(\d+)\//.exec(escalated.continue_url)![1]!;
        expect(ordersOf(ready.id)).toEqual([]);
        expect((await onStorePage(escalated.continue_url, 'success_token')).status).toBe(302);
        await woo.sim.controls.flushWebhooks();
        await receiver.waitFor(before + 1);
        expect(receiver.received.slice(before).map((w) => [bodyOf(w).id, bodyOf(w).checkout_id])).toEqual([[orderId, ready.id]]);
        expect((await call('GET', `/checkout-sessions/${ready.id}`)).body).toMatchObject({ status: 'completed', order: { id: orderId } });
      } finally {
        woo.sim.controls.settings.referenceSnippet = true;
      }
    });

    it('a challenge failed on the page, then one abandoned: another card completes it, the store paying that one order', async () => {
      for (const failOnPage of [true, false]) {
        const before = receiver.received.length;
        const ready = await readyCheckout();
        const escalated = (await call('POST', `/checkout-sessions/${ready.id}/complete`, card('action_token'))).body;
        expect(escalated.status).toBe('requires_escalation');
        if (failOnPage) {
          const failed = await onStorePage(escalated.continue_url, 'fail_token');
          expect([failed.status, await failed.text()]).toEqual([200, expect.stringContaining('Your card was declined.')]);
        }
        const done = (await call('POST', `/checkout-sessions/${ready.id}/complete`, card('success_token'))).body;
        expect(done.status).toBe('completed');
        const orders = ordersOf(ready.id);
        expect(orders.map((o) => [String(o.id), o.status])).toEqual([[done.order.id, 'processing']]);
        await woo.sim.controls.flushWebhooks();
        await receiver.waitFor(before + 1);
        expect(receiver.received.slice(before).map((w) => bodyOf(w).id)).toEqual([done.order.id]);
      }
    });
  },
);
