/**
 * Fidelity of the catalog's single reads (woocommerce/woocommerce plugins/woocommerce/includes/
 * rest-api/Controllers/Version3/class-wc-rest-products-controller.php get_item; the simulator's
 * rest-api.ts productOrVariation): on a store before WooCommerce 10.3 (no `/wc/v3/variations`,
 * 404 rest_no_route) a variation id is read with `GET /products/{id}`, which answers the variation
 * itself (wc_get_product loads any product type); an unknown id is 404
 * woocommerce_rest_product_invalid_id.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { wooSubject, type WooSubject } from '../harness.js';

let subject: WooSubject | undefined;
afterEach(async () => {
  await subject?.close();
  subject = undefined;
});

describe('GET wc/v3/products/{id} on a store before WooCommerce 10.3', () => {
  it('finds the product of a variation id from the variation the store answers, and nothing for an unknown id', async () => {
    subject = await wooSubject({ simulator: { variationsEndpoint: false } });
    const variation = String(subject.sim.controls.idOf('florist_tee_m_green'));
    const found = await subject.adapter.lookup([variation, '999999']);
    expect(found).toHaveLength(1);
    expect(found[0]!.product.id).toBe(String(subject.sim.controls.idOf('florist_tee')));
    expect(found[0]!.inputs).toEqual([{ id: variation, variantId: variation, match: 'exact' }]);
    expect(subject.sim.controls.calls().map((c) => c.route)).toEqual(
      expect.arrayContaining([`/wc/v3/products/${variation}`, '/wc/v3/products/999999']),
    );
  });
});
