/**
 * The must-use plugin of docs/adapters/woocommerce.md (adapters/woocommerce/mu-plugin/proto-reference.php),
 * run by PHP (php-cli, installed by `npm run test:all`): it lints, and its hooks, driven in the order a block
 * checkout fires them, keep the checkout link's reference until the order is placed, then save it
 * on that order. The block checkout fires woocommerce_store_api_checkout_update_order_meta when it
 * creates the draft order for GET /checkout, before the buyer submits
 * (src/StoreApi/Utilities/DraftOrderTrait.php, CheckoutTrait.php); the reference must survive it.
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

  it('keeps the reference past the draft order and saves it on the order placed, block and classic checkout alike', () => {
    const report = JSON.parse(php(resolve(root, 'test/adapters/woocommerce/php/hooks-harness.php'), plugin));
    expect(report).toEqual({
      after_draft: { session: 'chk_block', saved: [] },
      block: { session: null, saved: { _proto_reference: 'chk_block' } },
      classic: { session: null, saved: { _proto_reference: 'chk_classic' } },
    });
  });

  it('is the plugin the merchant guide shows', () => {
    const guide = readFileSync(resolve(root, 'docs/adapters/woocommerce.md'), 'utf8');
    const shown = /```php\n([\s\S]*?)```/.exec(guide)?.[1];
    expect(shown).toBe(readFileSync(plugin, 'utf8'));
  });
});
