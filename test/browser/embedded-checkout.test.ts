/**
 * The embedded page in real Chromium: the host example (its own origin) frames a checkout of the
 * demo flower shop, sandboxed and credentialless, and speaks the protocol with it (spec part 2 §6.2).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium } from './helpers/chromium.js';
import {
  applyCode,
  embedded,
  hostLog,
  inbound,
  notified,
  openHost,
  received,
  shipToChicago,
  startWorld,
  VERSION,
  type World,
} from './helpers/world.js';

let browser: Browser;
let world: World;

beforeAll(async () => {
  [browser, world] = await Promise.all([launchChromium(), startWorld()]);
});
afterAll(async () => {
  await Promise.all([browser?.close(), world?.close()]);
});

const open = (query: string) => openHost(browser, world, query);

describe('the handshake', () => {
  it('sends ready with the accepted delegations, then start with the full checkout, over the window', async () => {
    const { page, context } = await open('kind=checkout&pay=1&upgrade=0');
    try {
      const start = await received(page, 'ec.start');
      const log = await inbound(page);
      expect(log.map((e) => [e.via, e.message.method])).toEqual([
        ['window', 'ec.ready'],
        ['window', 'ec.start'],
      ]);
      expect(log[0]!.message.params).toEqual({ delegate: ['payment.credential'] });
      expect(start.params!.checkout).toMatchObject({
        status: 'incomplete',
        currency: 'USD',
        line_items: [{ item: { id: 'bouquet_roses' }, quantity: 2 }],
      });
      expect(start.params!.checkout.proto.version).toBe(VERSION);
      const frame = await embedded(page);
      expect(await frame.textContent('#lines-title')).toBe('Items');
    } finally {
      await context.close();
    }
  });
});

describe('the handshake with an upgrade', () => {
  it('sends a fresh ready on the MessagePort and uses only the port afterwards', async () => {
    const { page, context } = await open('kind=checkout&pay=1&upgrade=1');
    try {
      await received(page, 'ec.start');
      const frame = await embedded(page);
      await frame.fill('[data-key="buyer-email"]', 'ann@example.com');
      await frame.click('[data-key="buyer-save"]');
      await received(page, 'ec.buyer.change');
      const log = await inbound(page);
      expect(log.map((e) => [e.via, e.message.method])).toEqual([
        ['window', 'ec.ready'],
        ['port', 'ec.ready'],
        ['port', 'ec.start'],
        ['port', 'ec.buyer.change'],
        ...log.slice(4).map((e) => ['port', e.message.method]),
      ]);
      expect(log[1]!.message.params).toEqual({ delegate: ['payment.credential'] });
    } finally {
      await context.close();
    }
  });
});

describe('edits', () => {
  it('each change reaches the host as a state-change notification with the full checkout', async () => {
    const { page, context } = await open('kind=checkout&pay=0');
    try {
      await received(page, 'ec.start');
      const frame = await embedded(page);
      const lines = await notified(page, 'ec.line_items.change', async () => {
        await frame.fill('[data-key^="qty-"]', '3');
        await frame.press('[data-key^="qty-"]', 'Enter');
      });
      expect(lines.params!.checkout).toMatchObject({
        line_items: [{ quantity: 3, totals: expect.arrayContaining([{ type: 'subtotal', amount: 10_500 }]) }],
      });
      expect(lines.params!.checkout.totals).toContainEqual({ type: 'subtotal', amount: 10_500 });
      expect(Object.keys(lines.params!.checkout)).toEqual(
        expect.arrayContaining(['id', 'status', 'currency', 'totals', 'fulfillment', 'payment', 'links']),
      );
      expect(await frame.textContent('[data-total="subtotal"]')).toBe('$105.00');

      const discounted = await notified(page, 'ec.line_items.change', () => applyCode(frame, '10OFF'));
      expect(discounted.params!.checkout.discounts.applied).toMatchObject([{ code: '10OFF', amount: 1050 }]);

      const messages = await notified(page, 'ec.messages.change', () => applyCode(frame, 'BOGUS'));
      expect(messages.params!.checkout.messages).toContainEqual(
        expect.objectContaining({ code: 'discount_code_invalid', path: '$.discounts.codes[1]' }),
      );
      expect(await frame.textContent('[aria-label="About the discount codes"]')).toContain('BOGUS');

      const buyer = await notified(page, 'ec.buyer.change', async () => {
        await frame.fill('[data-key="buyer-email"]', 'ann@example.com');
        await frame.click('[data-key="buyer-save"]');
      });
      expect(buyer.params!.checkout.buyer).toEqual({ email: 'ann@example.com' });
      expect(buyer.params!.checkout.discounts.codes).toEqual(['10OFF', 'BOGUS']);

      const pickup = await notified(page, 'ec.fulfillment.change', () => frame.check('[data-key="method-pickup"]'));
      expect(pickup.params!.checkout.fulfillment.methods[0]).toMatchObject({ type: 'pickup', selected_destination_id: null });
      const chosen = await notified(page, 'ec.fulfillment.change', () => frame.check('[data-key="pickup-evanston"]'));
      expect(chosen.params!.checkout.fulfillment.methods[0].selected_destination_id).toBe('evanston');
    } finally {
      await context.close();
    }
  });
});

describe('typing', () => {
  it('what the buyer typed and has not saved survives the update another edit causes', async () => {
    const { page, context } = await open('kind=checkout&pay=0');
    try {
      await received(page, 'ec.start');
      const frame = await embedded(page);
      await frame.fill('[data-key="ship-street_address"]', '9 Elm St');
      await frame.fill('[data-key="buyer-email"]', 'half-typed@');
      await notified(page, 'ec.line_items.change', () => applyCode(frame, '10OFF'));
      expect(await frame.inputValue('[data-key="ship-street_address"]')).toBe('9 Elm St');
      expect(await frame.inputValue('[data-key="buyer-email"]')).toBe('half-typed@');
      // The code just applied is saved: its field is empty again.
      expect(await frame.inputValue('[data-key="discount-code"]')).toBe('');
    } finally {
      await context.close();
    }
  });
});

describe('payment delegated to the host', () => {
  it('asks the host for the credential, and completing places an order', async () => {
    const { page, context } = await open('kind=checkout&pay=1');
    try {
      await received(page, 'ec.start');
      const frame = await embedded(page);
      await shipToChicago(page, frame);
      expect(await frame.textContent('#payment-title + p')).toContain('come from the app');
      await frame.click('[data-key="pay"]');
      const request = await received(page, 'ec.payment.credential_request');
      expect(request.id).toBeTruthy();
      expect(request.params!.checkout.status).toBe('ready_for_complete');
      // The host confirms in its own sheet before releasing the credential.
      await page.click('#sheet-pay');
      const complete = await received(page, 'ec.complete');
      expect(complete.params!.checkout).toMatchObject({ status: 'completed', order: { id: expect.any(String) } });
      expect(await frame.textContent('[data-order]')).toBe(complete.params!.checkout.order.id);
      // The gateway agrees, asked by the agent that owns the session (the host example's profile).
      const headers = world.gateway.headers({ 'proto-agent': `profile="${world.host.origin}/.well-known/proto"` });
      const answer = await world.gateway.app.inject({ method: 'GET', url: `/checkout-sessions/${complete.params!.checkout.id}`, headers });
      expect(answer.json()).toMatchObject({ status: 'completed', order: { id: complete.params!.checkout.order.id } });
    } finally {
      await context.close();
    }
  });

  it('a buyer who closes the host sheet pays nothing and can try again', async () => {
    const { page, context } = await open('kind=checkout&pay=1');
    try {
      await received(page, 'ec.start');
      const frame = await embedded(page);
      await shipToChicago(page, frame);
      await frame.click('[data-key="pay"]');
      await received(page, 'ec.payment.credential_request');
      await page.click('#sheet button[value="cancel"]');
      await frame.waitForSelector('.notice:has-text("Nothing was paid")');
      expect((await inbound(page)).some((e) => e.message.method === 'ec.complete')).toBe(false);
      await notified(page, 'ec.payment.credential_request', () => frame.click('[data-key="pay"]'));
      await page.click('#sheet-pay');
      expect((await received(page, 'ec.complete')).params!.checkout.status).toBe('completed');
    } finally {
      await context.close();
    }
  });
});

describe('the sandbox handler on the page', () => {
  it('a declined test card leaves the checkout payable; the approved one places the order', async () => {
    const { page, context } = await open('kind=checkout&pay=0');
    try {
      await received(page, 'ec.start');
      const frame = await embedded(page);
      await shipToChicago(page, frame);
      await frame.check('[data-key="card-fail_token"]');
      const declined = await notified(page, 'ec.messages.change', () => frame.click('[data-key="pay"]'));
      expect(declined.params!.checkout.status).toBe('ready_for_complete');
      expect(await frame.textContent('.notice')).toMatch(/declined/i);
      await frame.check('[data-key="card-success_token"]');
      await frame.click('[data-key="pay"]');
      expect((await received(page, 'ec.complete')).params!.checkout).toMatchObject({
        status: 'completed',
        order: { id: expect.any(String) },
      });
    } finally {
      await context.close();
    }
  });

  it('a claim the store cannot verify at complete: the buyer reads why, and the checkout stays payable', async () => {
    const { page, context } = await open('kind=checkout&pay=0');
    try {
      await received(page, 'ec.start');
      const frame = await embedded(page);
      await shipToChicago(page, frame);
      // What the gateway answers a complete whose eligibility claim the store did not verify (upstream
      // checkout.md): proto.status success, the checkout as it was, and the error among its messages.
      const unverified = 'The store could not verify the eligibility claim "com.example.student" for this buyer.';
      await context.route('**/rpc', async (route) => {
        if ((route.request().postDataJSON() as { operation?: string }).operation !== 'complete_checkout') return route.continue();
        const current = await route.fetch({ postData: JSON.stringify({ operation: 'get_checkout' }), headers: route.request().headers() });
        const checkout = await current.json();
        const message = {
          type: 'error',
          code: 'eligibility_invalid',
          severity: 'recoverable',
          content: unverified,
          path: '$.context.eligibility[0]',
        };
        return route.fulfill({ response: current, json: { ...checkout, messages: [...(checkout.messages ?? []), message] } });
      });
      await frame.check('[data-key="card-success_token"]');
      const refused = await notified(page, 'ec.messages.change', () => frame.click('[data-key="pay"]'));
      expect(refused.params!.checkout.status).toBe('ready_for_complete');
      expect(await frame.textContent('.notice')).toBe(unverified);
      expect(await frame.isEnabled('[data-key="pay"]')).toBe(true);
    } finally {
      await context.close();
    }
  });
});

describe('the error paths', () => {
  it('a wrong ep_version gets the error notification with the storefront as continue_url, and no ready', async () => {
    const { page, context } = await open('kind=checkout&version=2020-01-01');
    try {
      const error = await received(page, 'ec.error');
      expect(error.params!.error).toEqual({
        proto: { version: VERSION, status: 'error' },
        messages: [expect.objectContaining({ type: 'error', code: 'not_supported_error', severity: 'unrecoverable' })],
        continue_url: 'https://flowers.example/store',
      });
      expect((await inbound(page)).map((e) => e.message.method)).toEqual(['ec.error']);
    } finally {
      await context.close();
    }
  });

  it('a page whose link expired ends the session with invalid_state_error and the storefront as continue_url', async () => {
    const { page, context } = await open('kind=checkout&pay=0');
    const clock = world.gateway.clock;
    const then = clock.now;
    try {
      await received(page, 'ec.start');
      const frame = await embedded(page);
      clock.now += 3601_000; // past the page token's hour
      const error = await notified(page, 'ec.error', () => applyCode(frame, '10OFF'));
      expect(error.params!.error).toMatchObject({
        messages: [{ type: 'error', code: 'invalid_state_error', severity: 'unrecoverable' }],
        continue_url: 'https://flowers.example/store',
      });
    } finally {
      clock.now = then;
      await context.close();
    }
  });

  it('a host that answers ready with an error hears nothing more', async () => {
    const { page, context } = await open('kind=checkout&ready=error');
    try {
      const frame = await embedded(page);
      await frame.waitForSelector('h2:has-text("This session was closed")');
      expect((await inbound(page)).map((e) => e.message.method)).toEqual(['ec.ready']);
    } finally {
      await context.close();
    }
  });

  it('a window on a foreign origin gets security_error and none of what it sent is processed', async () => {
    const { page, context } = await open('kind=checkout&pay=1');
    try {
      await received(page, 'ec.start');
      await page.evaluate((src) => {
        const frame = (globalThis as any).document.createElement('iframe');
        frame.src = src;
        (globalThis as any).document.body.append(frame);
      }, `${world.foreign.origin}/`);
      const foreign =
        page.frames().find((f) => f.url().startsWith(world.foreign.origin)) ??
        (await page.waitForEvent('framenavigated', (f) => f.url().startsWith(world.foreign.origin)));
      await foreign.waitForFunction(() => (globalThis as any).received.length >= 2);
      const replies = await foreign.evaluate(() => (globalThis as any).received);
      expect(replies).toEqual(
        [0, 1].map(() => ({
          jsonrpc: '2.0',
          method: 'ec.error',
          params: {
            error: {
              proto: { version: VERSION, status: 'error' },
              messages: [expect.objectContaining({ code: 'security_error', severity: 'unrecoverable' })],
            },
          },
        })),
      );
      // The session goes on with its real host, which heard nothing of it.
      const frame = await embedded(page);
      await frame.fill('[data-key="buyer-email"]', 'ann@example.com');
      await frame.click('[data-key="buyer-save"]');
      await received(page, 'ec.buyer.change');
      expect((await inbound(page)).map((e) => e.message.method)).toEqual(['ec.ready', 'ec.start', 'ec.buyer.change', 'ec.messages.change']);
      expect((await hostLog(page)).filter((e) => e.direction === 'out').map((e) => Object.keys(e.message.result ?? {}))).toEqual([
        ['proto'],
      ]);
    } finally {
      await context.close();
    }
  });
});

describe('the address delegated to the host', () => {
  it('asks the host for the address and ships there', async () => {
    const { page, context } = await open('kind=checkout&pay=0&address=1');
    try {
      expect((await received(page, 'ec.ready')).params).toEqual({ delegate: ['fulfillment.address_change'] });
      const frame = await embedded(page);
      // The page shows no address form of its own for a delegated address.
      expect(await frame.$('[data-key="ship-street_address"]')).toBeNull();
      const change = await notified(page, 'ec.fulfillment.change', () => frame.click('[data-key="address-change"]'));
      expect((await received(page, 'ec.fulfillment.address_change_request')).params!.checkout.id).toBe(change.params!.checkout.id);
      expect(change.params!.checkout.fulfillment.methods[0].destinations).toMatchObject([
        { street_address: '123 Main St', address_locality: 'Chicago' },
      ]);
      expect(await frame.textContent('.address p')).toBe('123 Main St, Chicago, IL 60601, US');
    } finally {
      await context.close();
    }
  });
});

describe('accessibility', () => {
  it('names every control: fields by their label, buttons by their text or aria-label', async () => {
    const { page, context } = await open('kind=checkout&pay=0');
    try {
      await received(page, 'ec.start');
      const frame = await embedded(page);
      await frame.check('[data-key="method-pickup"]');
      await frame.waitForSelector('[data-key="pickup-loop"]');
      const unnamed = await frame.evaluate(() =>
        [...(globalThis as any).document.querySelectorAll('input, button, select')]
          .filter(
            (c: any) => !(c.labels?.length > 0 && c.labels[0].textContent.trim()) && !c.getAttribute('aria-label') && !c.textContent.trim(),
          )
          .map((c: any) => c.outerHTML),
      );
      expect(unnamed).toEqual([]);
      expect(await frame.$$eval('input', (inputs) => inputs.length)).toBeGreaterThan(8);
    } finally {
      await context.close();
    }
  });
});

describe('layout', () => {
  it('fits a 320 px wide window without sideways scrolling, dark when the system is', async () => {
    const context = await browser.newContext({ viewport: { width: 320, height: 640 }, colorScheme: 'dark' });
    context.setDefaultTimeout(8000);
    try {
      const page = await context.newPage();
      await page.goto(`${world.host.origin}/?autostart=1&kind=checkout&pay=0`);
      await received(page, 'ec.start');
      const frame = await embedded(page);
      const { scroll, client, background } = await frame.evaluate(() => {
        const doc = (globalThis as any).document;
        return {
          scroll: doc.documentElement.scrollWidth,
          client: doc.documentElement.clientWidth,
          background: (globalThis as any).getComputedStyle(doc.body).backgroundColor,
        };
      });
      expect(client).toBeLessThanOrEqual(320);
      expect(scroll).toBeLessThanOrEqual(client);
      expect(background).toBe('rgb(20, 20, 18)');
    } finally {
      await context.close();
    }
  });
});
