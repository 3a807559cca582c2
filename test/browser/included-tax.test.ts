/**
 * The embedded page of a store whose prices include tax (the demo store with
 * `prices_include_tax`), in real Chromium: the summary shows the tax the prices contain under the
 * total, with the store's words, and adds no tax line of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium } from './helpers/chromium.js';
import { embedded, openHost, received, shipToChicago, startWorld, type World } from './helpers/world.js';

let browser: Browser;
let world: World;

beforeAll(async () => {
  [browser, world] = await Promise.all([launchChromium(), startWorld({}, {}, { pricesIncludeTax: true })]);
});
afterAll(async () => {
  await Promise.all([browser?.close(), world?.close()]);
});

describe('prices that include tax on the embedded page', () => {
  it('shows the included tax under the total, adding none', async () => {
    const { page, context } = await openHost(browser, world, 'kind=checkout&pay=0');
    try {
      await received(page, 'ec.start');
      const frame = await embedded(page);
      await shipToChicago(page, frame);
      // Two bouquets (70.00), standard shipping (5.00) taken off by a promotion: 70.00 contains 4.12 of Illinois sales tax.
      expect(await frame.textContent('[data-total="total"]')).toBe('$70.00');
      expect(await frame.$('[data-total="tax"]')).toBeNull();
      const lines = await frame.$$eval('.totals .sub', (cells) => cells.map((c) => c.textContent));
      expect(lines).toEqual(['Before tax', '$65.88', 'Illinois sales tax (included)', '$4.12']);
    } finally {
      await context.close();
    }
  });
});
