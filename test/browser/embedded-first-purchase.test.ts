/**
 * A person's first purchase in the embedded checkout, at desktop and phone sizes (issue 48): Pay
 * waits until the checkout can complete and the host is asked to confirm the final total; the
 * store's requirements are marked on the form, its messages name the form's labels, and saving
 * an address selects the first delivery option.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Frame } from 'playwright-core';
import { launchChromium } from './helpers/chromium.js';
import { embedded, inbound, notified, notifiedWhen, openHost, received, startWorld, type World } from './helpers/world.js';

let browser: Browser;
let world: World;

beforeAll(async () => {
  [browser, world] = await Promise.all([launchChromium(), startWorld()]);
});
afterAll(async () => {
  await Promise.all([browser?.close(), world?.close()]);
});

const SIZES = [
  { size: 'desktop', viewport: { width: 1280, height: 800 } },
  { size: 'phone', viewport: { width: 390, height: 844 } },
];

/** The label texts (without the mark) of the fields marked required, in the order shown. */
const markedRequired = (frame: Frame) =>
  frame.$$eval('.field', (fields) =>
    fields
      .filter((f) => f.querySelector('input')?.required && f.querySelector('label span')?.textContent === ' *')
      .map((f) => f.querySelector('label')!.firstChild!.textContent),
  );

describe.each(SIZES)('the embedded checkout at $size size', ({ viewport }) => {
  it('offers Pay only once the checkout can complete, and the host confirms the final total', async () => {
    const { page, context } = await openHost(browser, world, 'kind=checkout&pay=1', viewport);
    try {
      await received(page, 'ec.start');
      const frame = await embedded(page);
      // Nothing to pay yet: email and address missing, so no credential can be asked for.
      expect(await frame.isDisabled('[data-key="pay"]')).toBe(true);
      expect(await frame.textContent('#pay-pending')).toContain('once the store has everything it needs');
      await frame.click('[data-key="pay"]', { force: true });
      await notified(page, 'ec.buyer.change', async () => {
        await frame.fill('[data-key="buyer-email"]', 'ann@example.com');
        await frame.click('[data-key="buyer-save"]');
      });
      expect(await frame.isDisabled('[data-key="pay"]')).toBe(true);
      await frame.fill('[data-key="ship-street_address"]', '123 Main St');
      await frame.fill('[data-key="ship-address_locality"]', 'Chicago');
      await frame.fill('[data-key="ship-address_region"]', 'IL');
      await frame.fill('[data-key="ship-postal_code"]', '60601');
      await frame.click('[data-key="address-save"]');
      const ready = await notifiedWhen(page, 'ec.fulfillment.change', (params) => params.checkout.status === 'ready_for_complete');
      const total = ready.params!.checkout.totals.find((t: { type: string }) => t.type === 'total').amount;
      expect(total).toBe(7438); // 70.00 of roses, 5.00 off (an automatic promotion), 5.00 standard shipping, 4.38 Illinois tax
      await frame.waitForSelector('[data-key="pay"]:not([disabled])');
      expect(await frame.textContent('[data-key="pay"]')).toBe('Pay $74.38');
      expect((await inbound(page)).some((e) => e.message.method === 'ec.payment.credential_request')).toBe(false);

      await frame.click('[data-key="pay"]');
      const request = await received(page, 'ec.payment.credential_request');
      expect(request.params!.checkout).toMatchObject({
        status: 'ready_for_complete',
        totals: expect.arrayContaining([{ type: 'total', amount: 7438 }]),
      });
      expect(await page.textContent('#sheet-text')).toContain('Pay 74.38 USD');
      await page.click('#sheet-pay');
      expect((await received(page, 'ec.complete')).params!.checkout).toMatchObject({ status: 'completed' });
    } finally {
      await context.close();
    }
  });

  it('marks what the store requires, says what is missing in the form’s words, and picks the first delivery option', async () => {
    const { page, context } = await openHost(browser, world, 'kind=checkout&pay=0', viewport);
    try {
      await received(page, 'ec.start');
      const frame = await embedded(page);
      expect(await markedRequired(frame)).toEqual([
        'Email',
        'Street address',
        'City',
        'State or region',
        'Postal code',
        'Country (2 letters)',
      ]);
      await frame.fill('[data-key="ship-street_address"]', '123 Main St');
      await frame.fill('[data-key="ship-address_locality"]', 'Chicago');
      await frame.fill('[data-key="ship-postal_code"]', '60601');
      // The browser holds the form until the required region is there.
      await frame.click('[data-key="address-save"]');
      expect(await frame.$eval('[data-key="ship-address_region"]', (input) => (input as any).validity.valueMissing)).toBe(true);
      expect((await inbound(page)).some((e) => e.message.method === 'ec.fulfillment.change')).toBe(false);

      await frame.fill('[data-key="ship-address_region"]', 'IL');
      await frame.click('[data-key="address-save"]');
      const chosen = await notifiedWhen(page, 'ec.fulfillment.change', (params) =>
        Boolean(params.checkout.fulfillment.methods[0]?.groups?.[0]?.selected_option_id),
      );
      expect(chosen.params!.checkout.fulfillment.methods[0].groups[0].selected_option_id).toBe('std-ship');
      await frame.waitForSelector('[data-key$="-std-ship"]:checked');
      // Still missing: the email, named by its label next to its field, never by its member name.
      const email = await frame.$eval('[data-key="buyer-email"]', (input) => ({
        invalid: input.getAttribute('aria-invalid'),
        said: (globalThis as any).document.getElementById(input.getAttribute('aria-describedby'))?.textContent,
      }));
      expect(email).toEqual({ invalid: 'true', said: "The store needs the buyer's email address." });
      expect(await frame.innerText('#app')).not.toMatch(/address_region|address_country|selected_option_id|\$\./);
    } finally {
      await context.close();
    }
  });

  it('a store message naming a member (the region tax depends on) is shown at that field, in its label', async () => {
    const { page, context } = await openHost(browser, world, 'kind=checkout&pay=0', viewport);
    try {
      await received(page, 'ec.start');
      const frame = await embedded(page);
      await frame.fill('[data-key="ship-street_address"]', '123 Main St');
      await frame.fill('[data-key="ship-address_locality"]', 'Chicago');
      await frame.fill('[data-key="ship-address_region"]', ' '); // passes the browser's check, is no region
      await frame.fill('[data-key="ship-postal_code"]', '60601');
      await frame.click('[data-key="address-save"]');
      await notifiedWhen(page, 'ec.messages.change', (params) =>
        (params.checkout.messages ?? []).some((m: { path?: string }) => m.path?.endsWith('.address_region')),
      );
      const region = await frame.$eval('[data-key="ship-address_region"]', (input) => ({
        invalid: input.getAttribute('aria-invalid'),
        said: (globalThis as any).document.getElementById(input.getAttribute('aria-describedby'))?.textContent,
      }));
      expect(region).toEqual({ invalid: 'true', said: 'Tax depends on the region of the delivery address: add its “State or region”.' });
      expect(await frame.innerText('#app')).not.toContain('address_region');
    } finally {
      await context.close();
    }
  });
});
