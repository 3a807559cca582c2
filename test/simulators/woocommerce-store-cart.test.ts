/**
 * The simulated Store API cart as WooCommerce's own: the items and coupons collections answer
 * single items (CartItems, CartItemsByKey, CartCoupons, CartCouponsByCode), a rate id no package
 * offers is silently ignored (CartController::select_shipping_rate), prices entered with tax are
 * reported net in the totals and in the REST order, and Local Pickup rates, taxes and order lines
 * follow src/Shipping/PickupLocation.php and ShippingController.php.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWooSimulator, type WooSimulator } from '../../simulators/woocommerce/server.js';
import { ADDRESS, BILLING, restClient, storeApi } from '../helpers/woo-clients.js';

let sim: WooSimulator;

beforeAll(async () => {
  sim = await startWooSimulator();
});

afterAll(async () => {
  await sim?.close();
});

describe('cart items and coupons collections', () => {
  it('adds, reads, updates and removes single items, 409 for an unknown key', async () => {
    const { token } = await storeApi(sim, '/cart');
    const added = await storeApi(sim, '/cart/items', { token, body: { id: sim.controls.idOf('bouquet_roses'), quantity: 1 } });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ id: sim.controls.idOf('bouquet_roses'), quantity: 1, totals: { line_total: '3500' } });
    expect(added.body.items).toBeUndefined(); // an item, not the cart
    const key: string = added.body.key;
    const updated = await storeApi(sim, `/cart/items/${key}`, { method: 'PUT', token, body: { quantity: 3 } });
    expect(updated.body).toMatchObject({ key, quantity: 3, totals: { line_subtotal: '10500' } });
    expect((await storeApi(sim, '/cart/items', { token })).body).toHaveLength(1);
    const removed = await storeApi(sim, `/cart/items/${key}`, { method: 'DELETE', token });
    expect(removed).toMatchObject({ status: 204, body: null });
    const gone = await storeApi(sim, `/cart/items/${key}`, { token });
    expect(gone).toMatchObject({ status: 409, body: { code: 'woocommerce_rest_cart_invalid_key' } });
  });

  it('applies a coupon with 201 and the coupon alone, lists and removes it, 404 for a code not applied', async () => {
    const { token } = await storeApi(sim, '/cart');
    await storeApi(sim, '/cart/items', { token, body: { id: sim.controls.idOf('bouquet_roses'), quantity: 2 } });
    const applied = await storeApi(sim, '/cart/coupons', { token, body: { code: '10OFF' } });
    expect(applied).toMatchObject({ status: 201, body: { code: '10off', totals: { total_discount: '700' } } });
    expect((await storeApi(sim, '/cart/coupons', { token })).body.map((c: { code: string }) => c.code)).toEqual(['10off']);
    expect((await storeApi(sim, '/cart/coupons/nope', { token })).body.code).toBe('woocommerce_rest_cart_coupon_invalid_code');
    expect((await storeApi(sim, '/cart/coupons/10off', { method: 'DELETE', token })).status).toBe(204);
    expect((await storeApi(sim, '/cart', { token })).body.coupons).toEqual([]);
  });
});

describe('shipping rate selection', () => {
  it('requires rate_id, and answers 200 with the default rate kept when the package does not offer the rate asked', async () => {
    const { token } = await storeApi(sim, '/cart');
    await storeApi(sim, '/cart/items', { token, body: { id: sim.controls.idOf('bouquet_roses'), quantity: 1 } });
    await storeApi(sim, '/cart/update-customer', { token, body: { shipping_address: ADDRESS } });
    expect((await storeApi(sim, '/cart/select-shipping-rate', { token, body: {} })).body.code).toBe('rest_missing_callback_param');
    const ignored = await storeApi(sim, '/cart/select-shipping-rate', { token, body: { package_id: 0, rate_id: 'flat_rate:999' } });
    expect(ignored.status).toBe(200);
    const selected = ignored.body.shipping_rates[0].shipping_rates.filter((r: { selected: boolean }) => r.selected);
    expect(selected.map((r: { name: string }) => r.name)).toEqual(['Standard Shipping']);
  });
});

describe('prices entered with tax', () => {
  it('shows the gross price, totals net of tax, and a REST order whose lines are net', async () => {
    const gross = await startWooSimulator({ pricesIncludeTax: true, taxDisplayCart: 'incl' });
    try {
      const { token, nonce } = await storeApi(gross, '/cart');
      await storeApi(gross, '/cart/add-item', { token, body: { id: gross.controls.idOf('bouquet_roses'), quantity: 1 } });
      const cart = await storeApi(gross, '/cart/update-customer', { token, body: { shipping_address: ADDRESS, billing_address: BILLING } });
      // 35.00 entered with Illinois' 6.25 % in it: 2.06 of tax, 32.94 net; shipping is not taxed there.
      expect(cart.body.items[0].prices.price).toBe('3500');
      expect(cart.body.items[0].totals).toMatchObject({ line_subtotal: '3294', line_subtotal_tax: '206', line_total: '3294' });
      expect(cart.body.totals).toMatchObject({ total_items: '3294', total_items_tax: '206', total_shipping: '500', total_price: '4000' });
      const placed = await storeApi(gross, '/checkout', {
        token,
        nonce,
        body: { billing_address: BILLING, payment_method: 'simulated_card', payment_data: [{ key: 'token', value: 'success_token' }] },
      });
      const { data: order } = await (await restClient(gross.url)).get(`orders/${placed.body.order_id}`);
      expect(order).toMatchObject({ prices_include_tax: true, total: '40.00', total_tax: '2.06' });
      expect(order.line_items[0]).toMatchObject({
        subtotal: '32.94',
        subtotal_tax: '2.06',
        total: '32.94',
        total_tax: '2.06',
        price: 32.94,
      });
    } finally {
      await gross.close();
    }
  });
});

describe('Local Pickup', () => {
  const localPickup = {
    title: 'Pickup',
    cost: 0,
    locations: [
      {
        name: 'Brooklyn shop',
        address: { address_1: '5 Atlantic Ave', city: 'Brooklyn', state: 'NY', postcode: '11201', country: 'US' },
        details: 'Open 9-5',
        enabled: true,
      },
    ],
  };

  it('offers pickup before any address, taxes at the location, and records the location on the order', async () => {
    const shop = await startWooSimulator({ localPickup });
    try {
      const { token, nonce } = await storeApi(shop, '/cart');
      const added = await storeApi(shop, '/cart/add-item', { token, body: { id: shop.controls.idOf('bouquet_roses'), quantity: 1 } });
      expect(added.body.has_calculated_shipping).toBe(true);
      const pickup = added.body.shipping_rates[0].shipping_rates.find((r: { method_id: string }) => r.method_id === 'pickup_location');
      expect(pickup).toMatchObject({ rate_id: 'pickup_location:0', name: 'Pickup (Brooklyn shop)', instance_id: 0, price: '0' });
      expect(pickup.meta_data).toEqual(
        expect.arrayContaining([
          { key: 'pickup_location', value: 'Brooklyn shop' },
          { key: 'pickup_address', value: '5 Atlantic Ave, Brooklyn, NY 11201' },
          { key: 'pickup_details', value: 'Open 9-5' },
        ]),
      );
      await storeApi(shop, '/cart/update-customer', { token, body: { shipping_address: ADDRESS, billing_address: BILLING } });
      const chosen = await storeApi(shop, '/cart/select-shipping-rate', { token, body: { package_id: 0, rate_id: 'pickup_location:0' } });
      // The buyer is in Illinois (6.25 %); the roses are taxed at the Brooklyn location (8.875 %).
      expect(chosen.body.totals).toMatchObject({ total_items_tax: '311', total_shipping: '0' });
      const placed = await storeApi(shop, '/checkout', {
        token,
        nonce,
        body: { billing_address: BILLING, payment_method: 'simulated_card', payment_data: [{ key: 'token', value: 'success_token' }] },
      });
      const { data: order } = await (await restClient(shop.url)).get(`orders/${placed.body.order_id}`);
      expect(order.shipping_lines[0]).toMatchObject({
        method_id: 'pickup_location',
        instance_id: '0',
        method_title: 'Pickup (Brooklyn shop)',
      });
      expect(order.shipping_lines[0].meta_data.map((m: { key: string }) => m.key)).toEqual([
        'pickup_location',
        'pickup_address',
        'pickup_details',
        'Items',
      ]);
      expect(order.total_tax).toBe('3.11');
    } finally {
      await shop.close();
    }
  });
});
