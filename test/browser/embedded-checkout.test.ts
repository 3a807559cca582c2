/**
 * The embedded page in real Chromium: the host example (its own origin) frames a checkout of the
 * demo flower shop, sandboxed and credentialless, and speaks the protocol with it (spec part 2 §6.2).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from './helpers/chromium.js';
import { embedded, hostLog, inbound, received, startWorld, VERSION, type World } from './helpers/world.js';

let browser: Browser;
let world: World;

beforeAll(async () => {
  [browser, world] = await Promise.all([launchChromium(), startWorld()]);
});
afterAll(async () => {
  await Promise.all([browser?.close(), world?.close()]);
});

async function open(query: string): Promise<{ page: Page; context: BrowserContext }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${world.host.origin}/?autostart=1&${query}`);
  return { page, context };
}

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
      expect(start.params!.checkout).toMatchObject({ status: 'incomplete', currency: 'USD', line_items: [{ item: { id: 'bouquet_roses' }, quantity: 2 }] });
      expect(start.params!.checkout.proto.version).toBe(VERSION);
      const frame = await embedded(page);
      expect(await frame.textContent('#lines-title')).toBe('Items');
    } finally {
      await context.close();
    }
  });
});
