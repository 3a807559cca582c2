/**
 * A demo buyer links her account in a real browser (Chromium): the example agent's link flow
 * (scripts/agent-link.ts) hands her the authorization URL, she signs in on the gateway's login
 * page with the keyboard alone and allows, the browser lands on the agent's loopback redirect,
 * and the agent reads her order, placed through another platform, with her token. With
 * `--print-token`, `npm run agent -- link` hands the token over for calls of one's own (curl, MCP).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { run as agentCommand } from '../../scripts/agent.js';
import { linkAccount } from '../../scripts/agent-link.js';
import { freePort } from '../../scripts/free-port.js';
import { ORDER_READ } from '../../src/security/auth/scopes.js';
import { orderGateway, type OrderGateway } from '../helpers/order-gateway.js';
import { startPlatform, type PlatformServer } from '../helpers/platform.js';
import { launchChromium } from './helpers/chromium.js';

let browser: Browser;
let gw: OrderGateway;
let placer: PlatformServer;
let origin: string;

beforeAll(async () => {
  const agent = await startPlatform();
  placer = await startPlatform();
  origin = `http://127.0.0.1:${await freePort()}`;
  [browser, gw] = await Promise.all([
    launchChromium(),
    orderGateway({
      platform: agent,
      tenant: {
        name: 'Demo Flower Shop',
        base_url: origin,
        capabilities: { 'dev.proto.shopping.order': {}, 'dev.proto.common.identity_linking': {} },
        identity_linking: {
          clients: [
            { client_id: 'example-agent', name: 'Example agent', profile: agent.url(), redirect_uris: ['http://127.0.0.1/callback'] },
          ],
        },
      },
    }),
  ]);
  await gw.app.listen({ port: Number(new URL(origin).port), host: '127.0.0.1' });
});
afterAll(async () => {
  await Promise.all([browser?.close(), gw?.close()]);
  await Promise.all([gw?.platform.close(), placer?.close()]);
});

/** The buyer, keyboard only: email, password, Enter (the form's first button: sign in and allow). */
async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.keyboard.press('Tab');
  await page.keyboard.type(email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(password);
  await page.keyboard.press('Enter');
}

describe('linking a demo buyer in Chromium', () => {
  it("Jane signs in on the gateway's page and allows; the agent reads her order with her token; she signs out by the button", async () => {
    const orderId = await gw.placeOrder({ profileUrl: placer.url(), buyerId: 'cust_2' });
    const context = await browser.newContext();
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    const violations: string[] = [];
    const elsewhere: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    page.on('request', (request) => {
      const to = new URL(request.url());
      const agentsRedirect = to.hostname === '127.0.0.1' && to.pathname === '/callback';
      if (to.origin !== origin && !agentsRedirect) elsewhere.push(request.url());
    });
    try {
      let shown: Promise<void> | undefined;
      const linked = linkAccount({
        gateway: origin,
        clientId: 'example-agent',
        profile: gw.platform.url(),
        scope: ORDER_READ,
        orders: [orderId],
        timeoutMs: 30_000,
        onAuthorizationUrl: (url) => {
          shown = (async () => {
            await page.goto(url);
            expect(await page.locator('h1').innerText()).toBe('Sign in to Demo Flower Shop');
            expect(await page.locator('main').innerText()).toContain('Example agent asks to link your Demo Flower Shop account.');
            expect(await page.locator('main').innerText()).toContain('See your orders at this store, whichever assistant placed them');
            await signIn(page, 'jane.smith@example.com', 'demo-flowers');
            await page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/callback\?/);
          })();
        },
      });
      const outcome = await linked;
      await shown;
      // The browser landed on the agent's loopback redirect with a code, the state and the issuer.
      const landed = new URL(page.url());
      expect(landed.searchParams.get('iss')).toBe(origin);
      expect(landed.searchParams.get('code')).toBeTruthy();
      expect(landed.searchParams.get('state')).toBeTruthy();
      expect(await page.locator('h1').innerText()).toBe('You can close this window');
      expect(outcome.scope).toBe(ORDER_READ);
      expect(outcome.orders).toEqual([{ id: orderId, status: 200, body: expect.objectContaining({ id: orderId }) }]);
      // Signing out: the gateway's question, nothing happens until she presses the button.
      await page.goto(`${origin}/oauth2/logout`);
      expect(await page.locator('h1').innerText()).toBe('Sign out?');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(/\/oauth2\/logout\/success/);
      expect(await page.locator('h1').innerText()).toBe('Signed out');
      expect(violations).toEqual([]);
      expect(elsewhere).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('a wrong password keeps her on the page with the error announced; nothing reaches the agent', async () => {
    const context = await browser.newContext();
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    try {
      const link = linkAccount({
        gateway: origin,
        clientId: 'example-agent',
        profile: gw.platform.url(),
        scope: ORDER_READ,
        orders: [],
        timeoutMs: 8_000,
        onAuthorizationUrl: async (url) => {
          await page.goto(url);
          await signIn(page, 'jane.smith@example.com', 'not-her-password');
          expect(await page.getByRole('alert').innerText()).toBe('That email and password do not match an account of this store.');
          expect(new URL(page.url()).origin).toBe(origin);
        },
      });
      await expect(link).rejects.toThrow(/no sign-in within 8 s/);
    } finally {
      await context.close();
    }
  });
});

describe('npm run agent -- link --print-token', () => {
  let configDir: string;
  beforeAll(async () => {
    // The tenant file `link` reads: the demo tenant as this test's gateway serves it.
    configDir = await mkdtemp(join(tmpdir(), 'link-token-'));
    await mkdir(join(configDir, 'tenants'));
    const tenant = {
      id: 'demo',
      name: 'Demo Flower Shop',
      base_url: origin,
      adapter: { type: 'memory', settings: { data_dir: resolve('config/demo') } },
      capabilities: { 'dev.proto.shopping.order': {}, 'dev.proto.common.identity_linking': {} },
      identity_linking: {
        clients: [
          { client_id: 'example-agent', name: 'Example agent', profile: gw.platform.url(), redirect_uris: ['http://127.0.0.1/callback'] },
        ],
      },
    };
    await writeFile(join(configDir, 'tenants', 'demo.json'), JSON.stringify(tenant));
  });
  afterAll(() => rm(configDir, { recursive: true, force: true }));

  it("prints the buyer's token on stdout with a warning on stderr; curl and an MCP client read her order with it", async () => {
    const orderId = await gw.placeOrder({ profileUrl: placer.url(), buyerId: 'cust_2' });
    const context = await browser.newContext();
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    const out: string[] = [];
    const err: string[] = [];
    try {
      const linked = agentCommand(
        ['link', '--tenant', 'demo', '--print-token'],
        { out: (line) => out.push(line), err: (line) => err.push(line) },
        { gateway: origin, profile: gw.platform.url(), keyFile: 'docs/examples/agent.private.jwk', configDir },
      );
      const url = await vi.waitFor(
        () => err.find((line) => line.startsWith(`${origin}/oauth2/`)) ?? Promise.reject(new Error('no URL yet')),
      );
      await page.goto(url);
      await signIn(page, 'jane.smith@example.com', 'demo-flowers');
      expect(await linked).toBe(0);
    } finally {
      await context.close();
    }
    expect(out).toHaveLength(1);
    const [token] = out as [string];
    expect(err.join('\n')).toMatch(/access token follows on stdout: whoever holds it reads the buyer's orders/);

    // The README's curl line.
    const answer = await fetch(`${origin}/orders/${orderId}`, {
      headers: { authorization: `Bearer ${token}`, 'proto-agent': `profile="${gw.platform.url()}"`, 'request-id': 'link-curl' },
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ id: orderId, proto: { status: 'success' } });

    // The README's MCP lines: the token as the transport's Authorization header.
    const client = new Client({ name: 'my-agent', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
    );
    try {
      const meta = { 'proto-agent': { profile: gw.platform.url() } };
      const order = await client.callTool({ name: 'get_order', arguments: { meta, id: orderId } });
      expect(order.structuredContent).toMatchObject({ id: orderId, proto: { status: 'success' } });
    } finally {
      await client.close();
    }
  });
});
