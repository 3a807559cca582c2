/**
 * Fidelity of the cart's shipping rates (woocommerce/woocommerce plugins/woocommerce/src/StoreApi/
 * Routes/V1/CartSelectShippingRate.php, Utilities/CartController.php select_shipping_rate;
 * src/Shipping/PickupLocation.php; the simulator's store-api.ts selectRate and local-pickup.ts):
 * - select-shipping-rate stores the rate id unchecked: a rate the package does not offer answers
 *   200 and the package keeps its default (first) rate;
 * - Local Pickup adds one rate per location (`pickup_location:<n>`) to every package, and a chosen
 *   pickup rate is taxed at the location, not the buyer's address.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { wooSubject, type WooSubject } from '../harness.js';
import { rosesRequest } from './checkouts.js';

let subject: WooSubject | undefined;
afterEach(async () => {
  await subject?.close();
  subject = undefined;
});

describe('cart/select-shipping-rate (CartController::select_shipping_rate)', () => {
  it('a rate the package does not offer is not reported selected: no shipping quoted, the store’s default not charged', async () => {
    subject = await wooSubject();
    const open = await subject.adapter.quote(rosesRequest(subject));
    const quote = await subject.adapter.quote(rosesRequest(subject, 'flat_rate:999', open.handle));
    const group = quote.fulfillment![0]!.groups[0]!;
    expect(group.options.map((o) => o.id)).not.toContain('flat_rate:999');
    expect(group.selectedOptionId).toBeUndefined();
    expect(quote.totals.shipping).toBeNull();
    expect(quote.totals.total).toBe(quote.totals.subtotal + quote.totals.tax!);
  });
});

describe('Local Pickup rates (PickupLocation::calculate_shipping)', () => {
  it('are not offered as shipping to the buyer’s address', async () => {
    subject = await wooSubject({
      simulator: {
        localPickup: {
          locations: [
            {
              name: 'Brooklyn shop',
              address: { address_1: '5 Atlantic Ave', city: 'Brooklyn', state: 'NY', postcode: '11201', country: 'US' },
              details: 'Open 9-5',
              enabled: true,
            },
          ],
        },
      },
    });
    const quote = await subject.adapter.quote(rosesRequest(subject));
    const options = quote.fulfillment![0]!.groups[0]!.options;
    expect(options.map((o) => o.title)).toEqual(['Standard Shipping', 'Express Shipping (US)']);
  });
});
