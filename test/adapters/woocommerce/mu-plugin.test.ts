/**
 * The must-use plugin of docs/adapters/woocommerce.md (adapters/woocommerce/mu-plugin/proto-reference.php),
 * run by PHP (php-cli, installed by `npm run test:all`): it lints, and its hooks, driven in the order a block
 * checkout fires them, keep the checkout link's reference until the order is placed, then save it
 * on that order. The block checkout fires woocommerce_store_api_checkout_update_order_meta when it
 * creates the draft order for GET /checkout, before the buyer submits
 * (src/StoreApi/Utilities/DraftOrderTrait.php, CheckoutTrait.php); the reference must survive it.
 * A store-charged checkout sends its reference in the Store API request's `extensions`, registered
 * with woocommerce_store_api_register_endpoint_data; CheckoutTrait::update_order_from_request fires
 * woocommerce_store_api_checkout_update_order_from_request before the payment and saves the order.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../..');
const plugin = resolve(root, 'adapters/woocommerce/mu-plugin/proto-reference.php');
const php = (...args: string[]) => execFileSync('php', args, { encoding: 'utf8' });

describe('the proto_ref must-use plugin', () => {
  it('is valid PHP (php -l)', () => {
    expect(php('-l', plugin)).toMatch(/No syntax errors detected/);
  });

  it('keeps a link’s reference past the draft order onto the order placed (block, classic); writes a checkout’s own before payment', () => {
    const report = JSON.parse(php(resolve(root, 'test/adapters/woocommerce/php/hooks-harness.php'), plugin));
    expect(report).toEqual({
      after_draft: { session: 'chk_block', saved: [] },
      block: { session: null, saved: { _proto_reference: 'chk_block' } },
      classic: { session: null, saved: { _proto_reference: 'chk_classic' } },
      store_charged_without: [],
      store_charged: {
        meta: { _proto_reference: 'chk_store', _proto_payment_handler: 'card' },
        schema: ['reference', 'payment_handler'],
        answer: { reference: 'chk_store' },
      },
    });
  });

  it('is the plugin the merchant guide shows', () => {
    const guide = readFileSync(resolve(root, 'docs/adapters/woocommerce.md'), 'utf8');
    const shown = /```php\n([\s\S]*?)```/.exec(guide)?.[1];
    expect(shown).toBe(readFileSync(plugin, 'utf8'));
  });
});
