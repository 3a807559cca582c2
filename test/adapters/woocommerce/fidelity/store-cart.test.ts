/**
 * Fidelity of the quote's cart calls against the Store API's cart routes
 * (woocommerce/woocommerce plugins/woocommerce/src/StoreApi/Routes/V1/AbstractCartRoute.php,
 * CartAddItem.php, CartItems.php, CartCoupons.php, Batch.php, Utilities/CartController.php; the
 * simulator's store-session.ts, store-api.ts, store-batch.ts):
 * - a cart without a valid Cart-Token is a new guest session; every answer names its Cart-Token
 *   and a `Nonce` (add_response_headers);
 * - add-item adds to what the cart holds and refuses more than the stock left, counting what
 *   other buyers' unpaid orders hold (get_remaining_stock_for_product, "(N remaining)");
 * - `DELETE /cart/items` and `DELETE /cart/coupons` empty the cart, so a quote replaces what the
 *   cart held;
 * - a batch takes at most 25 requests.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { decodeHandle } from '../../../../adapters/woocommerce/cart-handle.js';
import { BUYER, wooSubject, type WooSubject } from '../harness.js';
import { readyCheckout, rosesRequest, storeCharged } from './checkouts.js';
import { storeCall } from './store-api.js';

let subject: WooSubject | undefined;
afterEach(async () => {
  await subject?.close();
  subject = undefined;
});

describe('the cart session (AbstractCartRoute, SessionHandler)', () => {
  it('a quote without a handle opens a cart: the handle is its Cart-Token and the Nonce the store answered with', async () => {
    subject = await wooSubject();
    const quote = await subject.adapter.quote(rosesRequest(subject));
    const { token, nonce } = decodeHandle(quote.handle)!;
    const cart = await fetch(`${subject.sim.url}/wp-json/wc/store/v1/cart`, { headers: { 'Cart-Token': token } });
    expect(cart.headers.get('nonce')).toBe(nonce);
    expect(((await cart.json()) as { items: Array<{ quantity: number }> }).items.map((i) => i.quantity)).toEqual([2]);
  });
});

describe('cart/add-item (CartController::validate_add_to_cart)', () => {
  it('stock another buyer’s unpaid order holds is not sold again: insufficient_stock with the count the store has left', async () => {
    subject = await wooSubject();
    subject.sim.controls.setStock(subject.sim.controls.idOf('bouquet_roses'), 5);
    // Another buyer's card waits for 3-D Secure: the store holds its 3 roses (ReserveStock).
    const other = await readyCheckout(subject, 3);
    expect(await subject.adapter.placeOrder(storeCharged(other, 'chk_other', 'action_token'))).toMatchObject({
      status: 'requires_action',
    });
    const quote = await subject.adapter.quote(rosesRequest(subject, undefined, undefined, 3));
    expect(quote.lineProblems).toEqual([{ lineId: 'li_1', code: 'insufficient_stock', available: 2 }]);
  });
});

describe('cart/items and cart/coupons emptied first (CartItems, CartCoupons DELETE)', () => {
  it('a line or code dropped from the request leaves the store’s cart', async () => {
    subject = await wooSubject();
    const pot = String(subject.sim.controls.idOf('pot_ceramic'));
    const first = await subject.adapter.quote({
      ...rosesRequest(subject),
      lines: [...rosesRequest(subject).lines, { lineId: 'li_2', variantId: pot, quantity: 1 }],
      discountCodes: ['10OFF'],
    });
    expect(first.discounts.applied.map((d) => d.code)).toEqual(['10OFF']);
    const second = await subject.adapter.quote(rosesRequest(subject, undefined, first.handle));
    expect(second.discounts.applied).toEqual([]);
    const cart = await storeCall(subject.sim, '/cart', { token: decodeHandle(second.handle)!.token });
    expect(cart.body.items.map((i: { id: number }) => String(i.id))).toEqual([String(subject.sim.controls.idOf('bouquet_roses'))]);
    expect(cart.body.coupons).toEqual([]);
  });
});

describe('batch (Batch::get_args: at most 25 requests)', () => {
  it('a quote of more steps than 25 goes in batches of 25, priced whole', async () => {
    subject = await wooSubject();
    const codes = Array.from({ length: 24 }, (_, i) => `NOPE${i}`);
    subject.sim.controls.resetCalls();
    const quote = await subject.adapter.quote({ ...rosesRequest(subject), buyer: BUYER, discountCodes: [...codes, '10OFF'] });
    expect(subject.sim.controls.calls().filter((c) => c.route === '/wc/store/v1/batch')).toHaveLength(2);
    expect(quote.discounts.applied.map((d) => d.code)).toEqual(['10OFF']);
    expect(quote.discounts.rejected).toHaveLength(24);
  });
});
