/**
 * `ec.auth` in real Chromium (spec part 2 §6.2, upstream EP "Authentication"): a business that
 * requires a credential for checkouts (an API key it issued to the agent) has its page ask the host
 * for one, in ready and, when the one it holds is refused, with `ec.auth`; the page's calls carry it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium } from './helpers/chromium.js';
import { embedded, inbound, openHost, received, startWorld, type World } from './helpers/world.js';

const API_KEY = randomBytes(24).toString('base64url');

let browser: Browser;
let world: World;

beforeAll(async () => {
  [browser, world] = await Promise.all([
    launchChromium(),
    startWorld(
      (hostProfile) => ({
        auth: {
          accept: ['api_key'],
          required_capabilities: ['dev.proto.shopping.checkout'],
          api_keys: [{ sha256: createHash('sha256').update(API_KEY).digest('hex'), profile: hostProfile }],
        },
      }),
      { apiKey: API_KEY },
    ),
  ]);
});
afterAll(async () => {
  await Promise.all([browser?.close(), world?.close()]);
});

const open = (query: string) => openHost(browser, world, query);

describe('a business that requires a credential on its checkout page', () => {
  it('asks for one in ready, and the page works with the credential the host gives', async () => {
    const { page, context } = await open('kind=checkout&upgrade=0');
    try {
      const start = await received(page, 'ec.start');
      const log = await inbound(page);
      expect(log.map((e) => e.message.method)).toEqual(['ec.ready', 'ec.start']);
      expect(log[0]!.message.params).toMatchObject({ auth: { type: 'api_key' } });
      expect(start.params!.checkout.status).toBe('incomplete');
      expect(await (await embedded(page)).textContent('#lines-title')).toBe('Items');
    } finally {
      await context.close();
    }
  });

  it('asks again with ec.auth when the credential it holds is refused, and goes on with the fresh one', async () => {
    const { page, context } = await open('kind=checkout&upgrade=1&credential=stale');
    try {
      const start = await received(page, 'ec.start');
      const log = await inbound(page);
      expect(log.map((e) => [e.via, e.message.method])).toEqual([
        ['window', 'ec.ready'],
        ['port', 'ec.ready'],
        ['port', 'ec.auth'],
        ['port', 'ec.start'],
      ]);
      expect(log[2]!.message.params).toEqual({ type: 'api_key' });
      expect(start.params!.checkout.line_items[0].item.id).toBe('bouquet_roses');
    } finally {
      await context.close();
    }
  });

  it('asks again with ec.auth when the page RPC answers identity_required as a protocol error response', async () => {
    const { page, context } = await open('kind=checkout&upgrade=1');
    try {
      // A business linking identities answers a refused bearer token with the envelope and a message,
      // not {code, content} (upstream identity-linking.md): the page's first call meets that answer.
      let refused = 0;
      await context.route('**/rpc', (route) => {
        if (refused++ > 0) return route.continue();
        return route.fulfill({
          status: 401,
          contentType: 'application/json',
          headers: { 'www-authenticate': 'Bearer realm="https://shop.example", error="invalid_token"' },
          body: JSON.stringify({
            proto: { version: '2026-04-08', status: 'error' },
            messages: [{ type: 'error', code: 'identity_required', content: 'The token has expired.', severity: 'requires_buyer_review' }],
          }),
        });
      });
      const start = await received(page, 'ec.start');
      const log = await inbound(page);
      expect(log.map((e) => [e.via, e.message.method])).toEqual([
        ['window', 'ec.ready'],
        ['port', 'ec.ready'],
        ['port', 'ec.auth'],
        ['port', 'ec.start'],
      ]);
      expect(start.params!.checkout.status).toBe('incomplete');
      expect(refused).toBe(2);
    } finally {
      await context.close();
    }
  });

  it('ends the session with ec.error and the store to continue on when the host cannot give one', async () => {
    const { page, context } = await open('kind=checkout&upgrade=0&credential=refuse');
    try {
      const error = await received(page, 'ec.error');
      expect(error.params!.error.messages).toEqual([
        expect.objectContaining({ code: 'not_supported_error', severity: 'unrecoverable', type: 'error' }),
      ]);
      expect(error.params!.error.continue_url).toEqual(expect.stringMatching(/^https?:\/\//));
      const log = await inbound(page);
      expect(log.map((e) => e.message.method)).toEqual(['ec.ready', 'ec.auth', 'ec.error']);
      // The host tore the frame down and offers the store's own site.
      await page.waitForSelector('#stage .banner a');
      expect(await page.locator('#stage iframe').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('refuses the page RPC without the credential, with one issued to no one, and admits the host key', async () => {
    const { page, context } = await open('kind=checkout&upgrade=0');
    try {
      await received(page, 'ec.start');
      const rpc = await (
        await embedded(page)
      ).evaluate(() => JSON.parse((globalThis as any).document.getElementById('ep-config').textContent).rpc as string);
      const call = (headers: Record<string, string>) =>
        fetch(rpc, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ operation: 'get_checkout' }),
        });
      const none = await call({});
      expect(none.status).toBe(401);
      expect(((await none.json()) as any).code).toBe('authentication_required');
      const unknown = await call({ 'ep-auth': 'not-a-key-anyone-was-given' });
      expect(unknown.status).toBe(401);
      expect(((await unknown.json()) as any).code).toBe('invalid_credentials');
      const admitted = await call({ 'ep-auth': API_KEY });
      expect(admitted.status).toBe(200);
      expect(((await admitted.json()) as any).status).toBe('incomplete');
    } finally {
      await context.close();
    }
  });
});
