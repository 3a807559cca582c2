/** /docs in Chromium: the page renders the tenant's OpenAPI document, one block per operation. */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { operations } from '../../src/pipeline/table.js';
import { testGateway, type TestGateway } from '../helpers/gateway.js';
import { launchChromium } from './helpers/chromium.js';

let browser: Browser;
let gw: TestGateway;
let url: string;
beforeAll(async () => {
  [browser, gw] = await Promise.all([launchChromium(), testGateway({ tenant: { a2a: true } })]);
  url = await gw.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await Promise.all([browser?.close(), gw?.close()]);
});

it('shows every operation of the table with its operationId, and the transports beside them', async () => {
  const page = await browser.newPage();
  try {
    await page.goto(`${url}/docs/`);
    await page.waitForSelector('.opblock', { timeout: 45_000 }); // a large bundle, on a shared machine
    await expect.poll(() => page.locator('.opblock').count()).toBe(operations.length + 4); // + profile, MCP, agent card, A2A
    const shown = await page.locator('.opblock-summary-operation-id').allTextContents();
    for (const op of operations) expect(shown).toContain(op.name);
    expect(await page.locator('.info .title').textContent()).toContain('Test Shop');
  } finally {
    await page.close();
  }
}, 60_000);
