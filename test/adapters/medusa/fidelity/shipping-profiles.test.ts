/**
 * Shipping profiles on the real Medusa server. Every shipping option serves one profile; GET
 * /store/shipping-options lists every option that reaches the address, whatever the cart holds
 * (core-flows list-shipping-options-for-cart); completion needs one shipping method per profile
 * of the cart's shipped items (core-flows validate-shipping). The example store ships the glass
 * vase in a "Fragile goods" profile (Fragile Courier, 12.00) and everything else in the default
 * profile (Standard 5.00, Express 15.00); the e-book has no profile and needs no shipping.
 */
import { describe, expect, it } from 'vitest';
import { medusaStore } from '../../../helpers/medusa-store.js';
import { adapterFor, BUYER, CHICAGO, lines, medusaCart, medusaOrder, readyQuote, reference, shippingRequest } from './fixtures.js';

const store = medusaStore();
const suite = store ? describe : describe.skip;

const titles = (options: Array<{ title: string }>) => options.map((o) => o.title);

suite('shipping profiles (real Medusa server)', () => {
  it("offers a cart only its own profile's options", async () => {
    const adapter = await adapterFor(store!);
    try {
      const quote = await adapter.quote(shippingRequest({ lines: lines(store!, { bouquet_roses: 1 }) }, CHICAGO));
      const groups = quote.fulfillment![0]!.groups;
      expect(groups.map((g) => titles(g.options))).toEqual([['Standard Shipping', 'Express Shipping']]);
    } finally {
      await adapter.close();
    }
  });

  it('a cart of two profiles: a group per profile, each selected and set; Medusa completes it with both methods', async () => {
    const adapter = await adapterFor(store!);
    try {
      const wanted = lines(store!, { bouquet_roses: 1, vase_glass: 1, ebook_flower_care: 1 });
      const [roses, vase, ebook] = wanted.map((l) => l.lineId);
      const { request, quote } = await readyQuote(adapter, shippingRequest({ lines: wanted }, CHICAGO));
      const groups = quote.fulfillment![0]!.groups;
      expect(groups.map((g) => [g.lineIds, titles(g.options), g.selectedOptionId !== undefined])).toEqual([
        [[roses], ['Standard Shipping', 'Express Shipping'], true],
        [[vase], ['Fragile Courier'], true],
      ]);
      expect(quote.fulfillment![0]!.lineIds).not.toContain(ebook);
      expect(quote.totals).toMatchObject({ subtotal: 3500 + 1800 + 900, shipping: 500 + 1200, total: 6200 + 1700 });

      const placed = await adapter.placeOrder({
        reference: reference('profiles'),
        quote: request,
        expectedTotal: quote.totals.total,
        buyer: BUYER,
        payment: { mode: 'gateway_charged', record: { handlerId: 'sandbox', transactionId: 'tx_profiles', amount: quote.totals.total } },
      });
      expect(placed).toMatchObject({ status: 'placed' });
      const order = await medusaOrder(store!, (placed as { orderId: string }).orderId, 'id,total,*shipping_methods');
      expect(order.shipping_methods.map((m: { name: string }) => m.name).sort()).toEqual(['Fragile Courier', 'Standard Shipping']);
      expect(Math.round(order.total * 100)).toBe(quote.totals.total);
    } finally {
      await adapter.close();
    }
  });

  it('a platform that takes one group per method: one group whose options cover both profiles, and the order completes', async () => {
    const adapter = await adapterFor(store!);
    try {
      const request = shippingRequest({ lines: lines(store!, { bouquet_roses: 1, vase_glass: 1 }) }, CHICAGO, { multiGroup: false });
      const { request: ready, quote } = await readyQuote(adapter, request);
      const [group] = quote.fulfillment![0]!.groups;
      expect(quote.fulfillment![0]!.groups).toHaveLength(1);
      expect(group!.options.map((o) => [o.title, o.amount])).toEqual([
        ['Standard Shipping + Fragile Courier', 1700],
        ['Express Shipping + Fragile Courier', 2700],
      ]);
      expect(quote.totals.shipping).toBe(1700);
      const placed = await adapter.placeOrder({
        reference: reference('one_group'),
        quote: ready,
        expectedTotal: quote.totals.total,
        buyer: BUYER,
        payment: { mode: 'gateway_charged', record: { handlerId: 'sandbox', transactionId: 'tx_one_group', amount: quote.totals.total } },
      });
      expect(placed).toMatchObject({ status: 'placed' });
    } finally {
      await adapter.close();
    }
  });

  it("a cart that no longer holds a profile's products is not charged that profile's shipping", async () => {
    const adapter = await adapterFor(store!);
    try {
      const [vase] = lines(store!, { vase_glass: 1 });
      const { request, quote } = await readyQuote(adapter, shippingRequest({ lines: [vase!] }, CHICAGO));
      expect(quote.totals.shipping).toBe(1200);
      // The buyer swaps the vase for roses and picks standard shipping.
      const roses = lines(store!, { bouquet_roses: 1 });
      const swapped = await readyQuote(adapter, shippingRequest({ lines: roses, handle: request.handle! }, CHICAGO));
      expect(swapped.quote.totals).toMatchObject({ subtotal: 3500, shipping: 500, total: 4000 });
      const cart = await medusaCart(store!, swapped.quote.handle!);
      expect(cart.shipping_methods.map((m: { name: string }) => m.name)).toEqual(['Standard Shipping']);
    } finally {
      await adapter.close();
    }
  });
});
