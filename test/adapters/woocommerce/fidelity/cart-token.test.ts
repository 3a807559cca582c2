/**
 * Fidelity: the Store API loads one cart session per HTTP request, from that request's own
 * Cart-Token header. Source: woocommerce/woocommerce plugins/woocommerce/src/StoreApi/SessionHandler.php
 * (the constructor reads `$_SERVER['HTTP_CART_TOKEN']`); the sub-requests of
 * `POST /wc/store/v1/batch` (Routes/V1/Batch.php) run inside that one request, so a token only
 * inside a sub-request's headers does not pick the cart (WooCommerce issue 42198: the token goes
 * on the outer batch request). Each sub-request's own header still spares it the nonce check
 * (Routes/V1/AbstractCartRoute.php has_cart_token / requires_nonce).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWooSimulator, type WooSimulator } from '../../../../simulators/woocommerce/server.js';
import { storeCall } from './store-api.js';

let sim: WooSimulator;
beforeAll(async () => {
  sim = await startWooSimulator();
});
afterAll(() => sim?.close());

const addRoses = (token: string) => ({
  method: 'POST',
  path: '/wc/store/v1/cart/add-item',
  headers: { 'Cart-Token': token },
  body: { id: sim.controls.idOf('bouquet_roses'), quantity: 1 },
});

describe('a batch writes to the cart of the outer request’s Cart-Token (SessionHandler.php)', () => {
  it('a token only inside the sub-requests leaves the token’s cart untouched', async () => {
    const { token } = await storeCall(sim, '/cart');
    const batch = await storeCall(sim, '/batch', { body: { requests: [addRoses(token)] } });
    expect(batch.status).toBe(207);
    expect(batch.body.responses[0].status).toBe(201);
    expect((await storeCall(sim, '/cart', { token })).body.items).toEqual([]);
  });

  it('the token on the outer request fills that cart', async () => {
    const { token } = await storeCall(sim, '/cart');
    await storeCall(sim, '/batch', { token, body: { requests: [addRoses(token)] } });
    expect((await storeCall(sim, '/cart', { token })).body.items.map((i: { quantity: number }) => i.quantity)).toEqual([1]);
  });

  it('a sub-request without a token or nonce of its own is refused (woocommerce_rest_missing_nonce)', async () => {
    const { token } = await storeCall(sim, '/cart');
    const { headers: _headers, ...bare } = addRoses(token);
    const batch = await storeCall(sim, '/batch', { token, body: { requests: [bare] } });
    expect(batch.body.responses[0]).toMatchObject({ status: 401, body: { code: 'woocommerce_rest_missing_nonce' } });
  });
});
