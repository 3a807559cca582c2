/**
 * Fidelity: `POST /wc/store/v1/cart/update-customer`
 * (woocommerce/woocommerce plugins/woocommerce/src/StoreApi/Routes/V1/CartUpdateCustomer.php,
 * Schemas/V1/AbstractAddressSchema.php validate_callback).
 * - The posted address is merged over the saved one (wp_parse_args): fields left out survive.
 * - State, postcode and phone are validated (ValidationUtils::validate_state,
 *   WC_Validation::is_postcode, WC_Validation::is_phone); a refusal is 400 rest_invalid_param with
 *   `params` and `details` per address, and nothing is saved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWooSimulator, type WooSimulator } from '../../../../simulators/woocommerce/server.js';
import { storeCall } from './store-api.js';

let sim: WooSimulator;
beforeAll(async () => {
  sim = await startWooSimulator();
});
afterAll(() => sim?.close());

const CHICAGO = { address_1: '1 Main St', address_2: 'Apt 4', city: 'Chicago', state: 'IL', postcode: '60601', country: 'US' };

describe('cart/update-customer (CartUpdateCustomer.php)', () => {
  it('merges a partial address over the saved one (wp_parse_args)', async () => {
    const { token } = await storeCall(sim, '/cart');
    await storeCall(sim, '/cart/update-customer', { token, body: { shipping_address: CHICAGO } });
    const moved = await storeCall(sim, '/cart/update-customer', { token, body: { shipping_address: { address_1: '9 Oak St' } } });
    expect(moved.body.shipping_address).toMatchObject({ address_1: '9 Oak St', address_2: 'Apt 4', state: 'IL' });
  });

  it('refuses a bad state, postcode and phone at once with rest_invalid_param, keeping the saved address', async () => {
    const { token } = await storeCall(sim, '/cart');
    await storeCall(sim, '/cart/update-customer', { token, body: { shipping_address: CHICAGO } });
    const refused = await storeCall(sim, '/cart/update-customer', {
      token,
      body: { shipping_address: { ...CHICAGO, state: 'ZZ', postcode: '6060', phone: 'call me' } },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): shipping_address',
      data: {
        status: 400,
        params: { shipping_address: expect.stringContaining('The provided postcode / ZIP is not valid') },
        details: {
          shipping_address: {
            code: 'invalid_state',
            additional_errors: [
              { code: 'invalid_postcode', message: 'The provided postcode / ZIP is not valid', data: null },
              { code: 'invalid_phone', message: 'The provided phone number is not valid', data: null },
            ],
          },
        },
      },
    });
    expect((await storeCall(sim, '/cart', { token })).body.shipping_address).toMatchObject({ state: 'IL', postcode: '60601' });
  });

  it('takes a state by its name (format_state) and a ZIP+4', async () => {
    const { token } = await storeCall(sim, '/cart');
    const ok = await storeCall(sim, '/cart/update-customer', {
      token,
      body: { shipping_address: { ...CHICAGO, state: 'Illinois', postcode: '60601-1234' } },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.shipping_address).toMatchObject({ state: 'IL', postcode: '60601-1234' });
  });
});
