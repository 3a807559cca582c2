/**
 * Fidelity: what the Store API cart says about tax.
 * - Cart item `prices` follow `woocommerce_tax_display_cart`: CartItemSchema.php passes
 *   get_option( 'woocommerce_tax_display_cart' ) to prepare_product_price_response
 *   (woocommerce/woocommerce plugins/woocommerce/src/StoreApi/Schemas/V1/CartItemSchema.php).
 * - Item `totals.line_subtotal` / `line_total` are the cart item's line_subtotal / line_total,
 *   net of tax either way, with the tax beside them (line_subtotal_tax, line_total_tax).
 * - With `woocommerce_prices_include_tax` the entered price is gross and the tax is taken out of it
 *   (includes/class-wc-cart-totals.php calculate_item_subtotals; WC_Tax::calc_inclusive_tax).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startWooSimulator, type WooSimulator, type WooSimulatorOptions } from '../../../../simulators/woocommerce/server.js';
import { storeCall } from './store-api.js';

let sim: WooSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

/** Two bouquets of roses ($35.00 as entered) shipped to Chicago (Illinois 6.25%). */
async function rosesToChicago(options: WooSimulatorOptions) {
  sim = await startWooSimulator(options);
  const { token } = await storeCall(sim, '/cart');
  await storeCall(sim, '/cart/add-item', { token, body: { id: sim.controls.idOf('bouquet_roses'), quantity: 2 } });
  const cart = await storeCall(sim, '/cart/update-customer', {
    token,
    body: { shipping_address: { country: 'US', state: 'IL', postcode: '60601', city: 'Chicago' } },
  });
  return cart.body.items[0];
}

describe('cart item prices follow woocommerce_tax_display_cart (CartItemSchema.php)', () => {
  it('excl: the price as entered, net of tax', async () => {
    const item = await rosesToChicago({});
    expect(item.prices.price).toBe('3500');
    expect(item.totals).toMatchObject({ line_subtotal: '7000', line_subtotal_tax: '438' });
  });

  it('incl: the price with tax, while the line totals stay net', async () => {
    const item = await rosesToChicago({ taxDisplayCart: 'incl' });
    expect(item.prices.price).toBe('3719');
    expect(item.totals).toMatchObject({ line_subtotal: '7000', line_subtotal_tax: '438' });
  });
});

describe('prices entered including tax (class-wc-cart-totals.php, WC_Tax::calc_inclusive_tax)', () => {
  it('the tax is taken out of the gross line: net subtotal plus tax is what the buyer sees', async () => {
    const item = await rosesToChicago({ pricesIncludeTax: true, taxDisplayCart: 'incl' });
    expect(item.prices.price).toBe('3500');
    expect(item.totals).toMatchObject({ line_subtotal: '6588', line_subtotal_tax: '412' });
  });
});
