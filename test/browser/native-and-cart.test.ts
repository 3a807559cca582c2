/**
 * Native hosts (a webview with injected globals, no frame) and the embedded cart (ep.cart.*):
 * spec part 2 §6.2 Channels and Cart messages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './helpers/chromium.js';
import { embedded, notified, openHost, received, startWorld, VERSION, type World } from './helpers/world.js';

let browser: Browser;
let world: World;

beforeAll(async () => {
  [browser, world] = await Promise.all([launchChromium(), startWorld()]);
});
afterAll(async () => {
  await Promise.all([browser?.close(), world?.close()]);
});

/** A session created by the host example's backend, as a native app's backend would. */
async function continueUrl(kind: 'cart' | 'checkout'): Promise<string> {
  const response = await fetch(`${world.host.origin}/api/sessions`, { method: 'POST', body: JSON.stringify({ kind }) });
  return ((await response.json()) as { continue_url: string }).continue_url;
}

/**
 * What a native app injects before the page runs: its consumer global (the plain one or WebKit's
 * message handler), keeping what the page sends and whether the page's own global existed at ready.
 */
function injectNative([consumer, name]: readonly ['window' | 'webkit', string]): void {
  const w = globalThis as any;
  w.nativeLog = [];
  const sink = {
    postMessage(text: string) {
      const message = JSON.parse(text);
      if (message.method?.endsWith('.ready')) w.protocolAtReady = typeof w[name]?.postMessage;
      w.nativeLog.push(message);
    },
  };
  if (consumer === 'webkit') w.webkit = { messageHandlers: { [`${name}Consumer`]: sink } };
  else w[`${name}Consumer`] = sink;
}

async function nativeMessage(page: Page, method: string): Promise<any> {
  const handle = await page.waitForFunction((m) => (globalThis as any).nativeLog.find((x: any) => x.method === m), method);
  return handle.jsonValue();
}

/** The app answers through the page's global, with a JSON string. */
async function answer(page: Page, name: string, message: object): Promise<void> {
  await page.evaluate(([n, text]) => (globalThis as any)[n!].postMessage(text), [name, JSON.stringify(message)]);
}

describe('a native host', () => {
  it('talks through window.EmbeddedCheckoutProtocolConsumer and window.EmbeddedCheckoutProtocol, set up before ready', async () => {
    const context = await browser.newContext();
    context.setDefaultTimeout(8000);
    try {
      const page = await context.newPage();
      await page.addInitScript(injectNative, ['window', 'EmbeddedCheckoutProtocol'] as const);
      await page.goto(`${await continueUrl('checkout')}?ep_version=${VERSION}&ep_checkout_delegate=payment.credential,window.open`);
      const ready = await nativeMessage(page, 'ec.ready');
      expect(ready.params).toEqual({ delegate: ['payment.credential'] });
      expect(await page.evaluate(() => (globalThis as any).protocolAtReady)).toBe('function');
      await answer(page, 'EmbeddedCheckoutProtocol', {
        jsonrpc: '2.0',
        id: ready.id,
        result: { proto: { version: VERSION, status: 'success' } },
      });
      const start = await nativeMessage(page, 'ec.start');
      expect(start.params.checkout.line_items).toMatchObject([{ item: { id: 'bouquet_roses' }, quantity: 2 }]);
      await page.fill('[data-key^="qty-"]', '1');
      await page.press('[data-key^="qty-"]', 'Enter');
      const change = await nativeMessage(page, 'ec.line_items.change');
      expect(change.params.checkout.line_items[0].quantity).toBe(1);
    } finally {
      await context.close();
    }
  });

  it('talks through window.webkit.messageHandlers.EmbeddedCartProtocolConsumer for a cart', async () => {
    const context = await browser.newContext();
    context.setDefaultTimeout(8000);
    try {
      const page = await context.newPage();
      await page.addInitScript(injectNative, ['webkit', 'EmbeddedCartProtocol'] as const);
      await page.goto(`${await continueUrl('cart')}?ep_version=${VERSION}&ep_color_scheme=dark`);
      const ready = await nativeMessage(page, 'ep.cart.ready');
      expect(ready.params).toEqual({ delegate: [] });
      expect(await page.evaluate(() => (globalThis as any).protocolAtReady)).toBe('function');
      await answer(page, 'EmbeddedCartProtocol', {
        jsonrpc: '2.0',
        id: ready.id,
        result: { proto: { version: VERSION, status: 'success' } },
      });
      await nativeMessage(page, 'ep.cart.start');
      expect(await page.getAttribute('html', 'data-color-scheme')).toBe('dark');
      await page.click('[data-key="cart-done"]');
      const complete = await nativeMessage(page, 'ep.cart.complete');
      expect(complete.params.cart).toMatchObject({ id: expect.stringMatching(/^cart_/), line_items: [{ quantity: 2 }] });
    } finally {
      await context.close();
    }
  });
});

describe('the embedded cart in a web host', () => {
  it('sends ep.cart.ready, start, changes with the full cart and complete, after which the host checks out', async () => {
    const { page, context } = await openHost(browser, world, 'kind=cart');
    try {
      const start = await received(page, 'ep.cart.start');
      expect((await received(page, 'ep.cart.ready')).params).toEqual({ delegate: [] });
      expect(start.params!.cart).toMatchObject({ currency: 'USD', line_items: [{ quantity: 2 }] });
      const frame = await embedded(page);
      const change = await notified(page, 'ep.cart.line_items.change', async () => {
        await frame.fill('[data-key="discount-code"]', '10OFF');
        await frame.click('[data-key="discount-apply"]');
      });
      expect(change.params!.cart.discounts.applied).toMatchObject([{ code: '10OFF' }]);
      expect(change.params!.cart.totals).toContainEqual({ type: 'total', amount: 6300 });
      const buyer = await notified(page, 'ep.cart.buyer.change', async () => {
        await frame.fill('[data-key="buyer-email"]', 'lee@example.com');
        await frame.click('[data-key="buyer-save"]');
      });
      expect(buyer.params!.cart).toMatchObject({ buyer: { email: 'lee@example.com' }, discounts: { codes: ['10OFF'] } });
      await notified(page, 'ep.cart.line_items.change', async () => {
        await frame.fill('[data-key^="qty-"]', '5');
        await frame.press('[data-key^="qty-"]', 'Enter');
      });
      const complete = await notified(page, 'ep.cart.complete', () => frame.click('[data-key="cart-done"]'));
      expect(complete.params!.cart.line_items).toMatchObject([{ item: { id: 'bouquet_roses' }, quantity: 5 }]);
      // The host makes a checkout of the finished cart and frames it.
      const checkout = await notified(page, 'ec.start', () => page.click('#checkout-cart'));
      expect(checkout.params!.checkout.line_items).toMatchObject([{ item: { id: 'bouquet_roses' }, quantity: 5 }]);
    } finally {
      await context.close();
    }
  });
});
