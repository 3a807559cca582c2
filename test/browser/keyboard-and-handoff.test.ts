/**
 * A buyer with a keyboard only completes the demo checkout inside the host (sandbox card), and a
 * store that takes payment on its own site hands the buyer over (spec part 2 §6.2, issue 16).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium } from './helpers/chromium.js';
import {
  embedded,
  inbound,
  notified,
  notifiedWhen,
  openHost,
  received,
  shipToChicago,
  startWorld,
  tabTo,
  type World,
} from './helpers/world.js';

let browser: Browser;
let world: World;
let handoffWorld: World;

beforeAll(async () => {
  [browser, world, handoffWorld] = await Promise.all([
    launchChromium(),
    startWorld(),
    startWorld({
      payment_handlers: [{ id: 'store-checkout', name: 'dev.proto.payments.handoff', type: 'handoff', instruments: ['redirect'] }],
    }),
  ]);
});
afterAll(async () => {
  await Promise.all([browser?.close(), world?.close(), handoffWorld?.close()]);
});

describe('keyboard only', () => {
  it('reaches every control with Tab and completes the checkout with Enter and Space', async () => {
    const { page, context } = await openHost(browser, world, 'kind=checkout&pay=0');
    try {
      await received(page, 'ec.start');
      const frame = await embedded(page);
      const type = async (key: string, text: string) => {
        await tabTo(page, frame, key);
        await page.keyboard.type(text);
      };
      await notified(page, 'ec.buyer.change', async () => {
        await type('buyer-email', 'kim@example.com');
        await page.keyboard.press('Enter');
      });
      await type('ship-street_address', '123 Main St');
      await type('ship-address_locality', 'Chicago');
      await type('ship-address_region', 'IL');
      await type('ship-postal_code', '60601');
      await tabTo(page, frame, 'address-save');
      await page.keyboard.press('Enter');
      // The first option (standard) is chosen for the buyer; the arrow keys choose another.
      await notifiedWhen(page, 'ec.fulfillment.change', (params) => params.checkout.status === 'ready_for_complete');
      const express = await notified(page, 'ec.fulfillment.change', async () => {
        await tabTo(page, frame, 'option-*');
        await page.keyboard.press('ArrowDown');
      });
      expect(express.params!.checkout.fulfillment.methods[0].groups[0].selected_option_id).toBe('exp-ship-us');
      await tabTo(page, frame, 'card-success_token');
      await tabTo(page, frame, 'pay');
      await page.keyboard.press('Enter');
      const complete = await received(page, 'ec.complete');
      expect(complete.params!.checkout).toMatchObject({
        status: 'completed',
        buyer: { email: 'kim@example.com' },
        order: { id: expect.any(String) },
      });
      // The confirmation takes the focus, so a screen reader announces it.
      expect(await frame.evaluate(() => (globalThis as any).document.activeElement?.id)).toBe('outcome-title');
    } finally {
      await context.close();
    }
  });
});

describe('a store that takes payment on its own site', () => {
  it('says so, and hands the buyer over with continue_url in the error notification', async () => {
    const { page, context } = await openHost(browser, handoffWorld, 'kind=checkout&pay=0');
    try {
      await received(page, 'ec.start');
      const frame = await embedded(page);
      expect(await frame.textContent('#payment-title + p')).toContain('takes payment on its own site');
      await shipToChicago(page, frame);
      const error = await notified(page, 'ec.error', () => frame.click('[data-key="pay"]'));
      const checkoutId = (await received(page, 'ec.start')).params!.checkout.id;
      expect(error.params!.error).toMatchObject({
        proto: { status: 'error' },
        messages: [
          {
            type: 'error',
            code: 'requires_escalation',
            content: expect.stringMatching(/^This store takes payment on its own checkout page/),
          },
        ],
        continue_url: `https://flowers.example/store/cart/bouquet_roses:2?ref=${checkoutId}`,
      });
      // The host tore the frame down and offers the buyer the top-level navigation.
      expect(await page.getAttribute('#stage .banner a', 'href')).toBe(error.params!.error.continue_url);
      expect((await inbound(page)).some((e) => e.message.method === 'ec.complete')).toBe(false);
    } finally {
      await context.close();
    }
  });
});
