/**
 * Fidelity: carrier-calculated shipping. The Storefront cart lists carrier rates only for
 * `deliveryGroups(withCarrierRates: true)`, which "requires mandatory usage of the `@defer`
 * directive" (2026-10 schema, argument description; by default "only static shipping rates are
 * returned"); after a delivery address changes the groups are pending for a while, and selecting an
 * option then answers PENDING_DELIVERY_GROUPS (CartErrorCode: "The delivery group is in a pending
 * state"). The simulator's `carrierRates` mode keeps them pending for a number of reads.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { shopifySetup, type ShopifySetup } from '../helpers.js';
import { placePaid, readyQuote, shippingRequest } from './checkout.js';

const setups: ShopifySetup[] = [];
afterAll(() => Promise.all(setups.map((s) => s.close())));

async function carrierShop(pendingReads: number) {
  const s = await shopifySetup({ simulator: { carrierRates: { pendingReads } } });
  setups.push(s);
  return s;
}

describe('Shopify fidelity: carrier-calculated rates', () => {
  it('offers the carrier rates once Shopify has them (a bounded re-query while pending), and places the order', async () => {
    const s = await carrierShop(2);
    const roses = s.sim.shop.ids.gid('ProductVariant', 'bouquet_roses');
    const { request, quote } = await readyQuote(s, [{ lineId: 'l1', variantId: roses, quantity: 1 }]);
    const group = quote.fulfillment![0]!.groups[0]!;
    expect(group.options.map((o) => o.title)).toEqual(['Standard Shipping', 'Express Shipping (US)']);
    expect(group.selectedOptionId).toBe(group.options[0]!.id);
    expect(quote.totals.tax).not.toBeNull();
    // Reading the unchanged checkout stays one call: the carrier-rate groups come in its deferred part.
    s.sim.resetCalls();
    const again = await s.adapter.quote(request);
    expect(s.sim.calls.map((c) => c.operationName)).toEqual(['CartWithCarrierRates']);
    expect(again.totals).toEqual(quote.totals);
    await expect(placePaid(s, request, quote)).resolves.toMatchObject({ status: 'placed' });
  });

  it('takes the carrier rates from the deferred part of the cart mutation itself, and reads again only while pending', async () => {
    const ready = await carrierShop(0);
    const roses = ready.sim.shop.ids.gid('ProductVariant', 'bouquet_roses');
    ready.sim.resetCalls();
    const { quote } = await readyQuote(ready, [{ lineId: 'l1', variantId: roses, quantity: 1 }]);
    expect(quote.fulfillment![0]!.groups[0]!.options.map((o) => o.title)).toEqual(['Standard Shipping', 'Express Shipping (US)']);
    const storefront = (s: ShopifySetup) => s.sim.calls.filter((c) => c.api === 'storefront').map((c) => c.operationName);
    expect(storefront(ready)).toEqual(['CartCreate', 'CartSync']);

    // Two pending reads: the mutation's deferred part is the first, one CartDelivery the second, the next has them.
    const pending = await carrierShop(2);
    pending.sim.resetCalls();
    await readyQuote(pending, [{ lineId: 'l1', variantId: pending.sim.shop.ids.gid('ProductVariant', 'bouquet_roses'), quantity: 1 }]);
    expect(storefront(pending)).toEqual(['CartCreate', 'CartDelivery', 'CartDelivery', 'CartSync']);
  });

  it('says the options are still being calculated (recoverable) when Shopify stays pending', async () => {
    const s = await carrierShop(50);
    const roses = s.sim.shop.ids.gid('ProductVariant', 'bouquet_roses');
    const quote = await s.adapter.quote(shippingRequest([{ lineId: 'l1', variantId: roses, quantity: 1 }]));
    const group = quote.fulfillment![0]!.groups[0]!;
    expect(group.options).toEqual([]);
    expect(group.unavailableReason).toMatch(/still calculating shipping options/);
  });
});
