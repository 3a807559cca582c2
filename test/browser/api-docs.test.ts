/**
 * /docs in Chromium: the page renders the tenant's OpenAPI document, one block per operation,
 * under its strict CSP (no violation) and without asking any other origin for anything.
 */
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
  const violations: string[] = [];
  const elsewhere: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  page.on('request', (request) => {
    if (!/^(data|blob):/.test(request.url()) && new URL(request.url()).origin !== new URL(url).origin) elsewhere.push(request.url());
  });
  try {
    await page.goto(`${url}/docs/`);
    await page.waitForSelector('.opblock', { timeout: 45_000 }); // a large bundle, on a shared machine
    await expect.poll(() => page.locator('.opblock').count()).toBe(operations.length + 4); // + profile, MCP, agent card, A2A
    const shown = await page.locator('.opblock-summary-operation-id').allTextContents();
    for (const op of operations) expect(shown).toContain(op.name);
    expect(await page.locator('.info .title').textContent()).toContain('Test Shop');
    expect(violations).toEqual([]);
    expect(elsewhere).toEqual([]);
  } finally {
    await page.close();
  }
}, 60_000);

it('"Try it out" comes prefilled with a working request: the demo ids in the body, every required header filled', async () => {
  const page = await browser.newPage();
  try {
    await page.goto(`${url}/docs/`);
    const block = page.locator('.opblock', { has: page.locator('.opblock-summary-operation-id', { hasText: /^create_checkout$/ }) });
    await block.locator('.opblock-summary').click({ timeout: 45_000 });
    // The page opens every operation ready to try (tryItOutEnabled): its fields are editable at once.
    await block.locator('.try-out__btn.cancel').waitFor();
    const body = JSON.parse(await block.locator('textarea.body-param__text').inputValue());
    expect(body).toMatchObject({ line_items: [{ item: { id: 'bouquet_roses' }, quantity: 2 }], buyer: { email: 'ann@example.com' } });
    expect(JSON.stringify(body)).not.toMatch(/"string"|VMM/);
    const headerValue = (name: string) => block.locator(`tr[data-param-name="${name}"] input`).inputValue();
    expect(await headerValue('PROTO-Agent')).toBe('profile="http://127.0.0.1:9000/.well-known/proto"');
    expect(await headerValue('Request-Id')).not.toBe('');
    expect(await headerValue('Idempotency-Key')).toBe('try-create-checkout-1');
  } finally {
    await page.close();
  }
}, 60_000);
