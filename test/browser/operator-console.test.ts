/**
 * The operator console in Chromium at a phone's width: the tenant list, a tenant's page, an action
 * refused without signing in, and, signed in, a dead letter retried (the platform receives it)
 * and another discarded. Screenshots go to SCREENSHOTS_DIR (docs/images for the docs), else to a
 * temporary folder.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { orderWebhookQueue } from '../../src/capabilities/order/outbox.js';
import { orderGateway, type OrderGateway } from '../helpers/order-gateway.js';
import { startReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { launchChromium } from './helpers/chromium.js';

const TOKEN = 'console-browser-test-operator-token';
const SHOTS = process.env.SCREENSHOTS_DIR ? resolve(process.env.SCREENSHOTS_DIR) : mkdtempSync(join(tmpdir(), 'console-'));

let browser: Browser;
let gw: OrderGateway;
let receiver: WebhookReceiver;
let origin: string;
let page: Page;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  receiver = await startReceiver();
  receiver.answer(503);
  gw = await orderGateway({
    operators: [{ name: 'alice', token: TOKEN }],
    tenant: { name: 'Petal & Stem' },
    webhooks: { schedule: { maxAttempts: 1, delayMs: () => 1000 } },
  });
  for (let i = 0; i < 6; i++) await gw.tenant.adapter.ping(); // some store calls for the health figures
  await gw.app.inject({ method: 'GET', url: '/.well-known/proto' }); // and a request
  await gw.placeOrder({ webhookUrl: receiver.url() });
  await gw.placeOrder({ webhookUrl: receiver.url() });
  await vi.waitFor(async () => expect(await orderWebhookQueue(gw.store, 'shop').listDead()).toHaveLength(2), { timeout: 10_000 });
  await gw.app.admin.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(gw.app.admin.server.address() as AddressInfo).port}`;
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 375, height: 812 } });
});

afterAll(async () => {
  await browser?.close();
  await gw?.close();
  await receiver?.close();
});

/** Nothing is wider than the phone's screen but the tables, which scroll inside their own box. */
const fitsTheScreen = () =>
  page.evaluate(() => {
    const browser = globalThis as unknown as { document: { documentElement: { scrollWidth: number } }; innerWidth: number };
    return browser.document.documentElement.scrollWidth <= browser.innerWidth;
  });

const deadLetters = () => page.locator('table.dead-letters tbody tr');

describe('the operator console in a browser', () => {
  it('lists every tenant with its adapter, finishing mode and backend health', async () => {
    await page.goto(`${origin}/console`);
    const card = page.locator('article[data-tenant="shop"]');
    await expect.poll(() => card.locator('h2').textContent()).toBe('Petal & Stem');
    expect(await card.textContent()).toContain('memory');
    expect(await card.locator('.circuit').textContent()).toContain('closed');
    expect(await card.locator('.error-rate').textContent()).toMatch(/^0\.0 % of \d+ calls$/);
    expect(await card.locator('svg.spark').count()).toBe(1);
    expect(await card.locator('.transports').textContent()).toMatch(/\w+ 1/);
    expect(await fitsTheScreen()).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'console-tenants-375.png'), fullPage: true });
  });

  it("opens a tenant's page: its outbox with the dead letters, and refuses an action without signing in", async () => {
    await page.locator('article[data-tenant="shop"] h2 a').click();
    await page.waitForURL(/\/console\/tenants\/shop$/);
    expect(await page.locator('.outbox-summary').textContent()).toMatch(/0 waiting · 2 dead/);
    expect(await deadLetters().count()).toBe(2);
    expect(await page.locator('table.problems').textContent()).toContain('order-webhooks: dead_lettered');
    expect(await fitsTheScreen()).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'console-tenant-375.png'), fullPage: true });

    await deadLetters()
      .first()
      .getByRole('button', { name: /^Retry/ })
      .click();
    await expect.poll(() => page.locator('.notice').textContent()).toContain('Refused');
    expect(await orderWebhookQueue(gw.store, 'shop').listDead()).toHaveLength(2);
    expect(receiver.received).toHaveLength(2); // the two failed attempts, nothing more
  });

  it('signed in, retries a dead letter (the platform receives it) and discards the other', async () => {
    await page.goto(`${origin}/console/sign-in`);
    await page.getByLabel('Operator token').fill(TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.locator('header').textContent()).toContain('Signed in as alice');

    receiver.answer(200);
    await page.goto(`${origin}/console/tenants/shop`);
    const retried = await deadLetters().first().getAttribute('data-event');
    await deadLetters()
      .first()
      .getByRole('button', { name: /^Retry/ })
      .click();
    await expect.poll(() => page.locator('.notice').textContent()).toContain('Queued again');
    const delivered = await receiver.waitFor(3);
    expect(delivered[2]!.headers['webhook-id']).toBe(retried);

    await deadLetters()
      .first()
      .getByRole('button', { name: /^Discard/ })
      .click();
    await expect.poll(() => page.locator('.notice').textContent()).toContain('Discarded');
    await page.reload();
    expect(await page.locator('.outbox-summary').textContent()).toMatch(/0 dead/);
    expect(await deadLetters().count()).toBe(0);
    expect(gw.logs.map((l) => [l.msg, l.operator])).toEqual(
      expect.arrayContaining([
        ['console: dead letter retried', 'alice'],
        ['console: dead letter discarded', 'alice'],
      ]),
    );
  });
});
