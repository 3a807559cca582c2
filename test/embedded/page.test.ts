/**
 * The page shell at a session's continue_url and the page's asset files: the shell's markup and
 * configuration, its security headers (strict CSP, frame-ancestors = the tenant's host origins,
 * no cookies), and what a guessed, altered, expired, borrowed or foreign token gets.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GatewaySecret } from '../../src/config/gateway-secret.js';
import { defaultAssetsDir } from '../../src/embedded/transport/assets.js';
import { line, STOREFRONT, type CheckoutGateway } from '../capabilities/checkout/checkout-gateway.js';
import { startStorefront } from '../transports/storefront-server.js';
import { embeddedGateway, HOST_ORIGINS, pathOf } from './embedded-gateway.js';

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' https: data:; connect-src 'self'; " +
  "form-action 'none'; base-uri 'none'; " +
  `frame-ancestors ${HOST_ORIGINS.join(' ')}`;

let assets: string;
beforeAll(() => {
  assets = mkdtempSync(join(tmpdir(), 'embedded-assets-'));
  writeFileSync(join(assets, 'page.js'), 'export const page = 1;\n');
  writeFileSync(join(assets, 'ui.render.js'), 'export const ui = 2;\n');
  writeFileSync(join(assets, 'embedded.css'), 'main{display:block}\n');
  writeFileSync(join(assets, 'notes.txt'), 'not an asset');
});
afterAll(() => rmSync(assets, { recursive: true, force: true }));

let gw: CheckoutGateway | undefined;
afterEach(async () => {
  await gw?.close();
  gw = undefined;
});

async function checkoutPage(options: Parameters<typeof embeddedGateway>[0] = {}) {
  gw = await embeddedGateway({ ...options, gateway: { embeddedAssetsDir: assets, ...options.gateway } });
  const checkout = (await gw.client('rest').create({ line_items: [line('pot_ceramic')] })).body;
  return { gw, checkout, url: checkout.continue_url as string };
}

const configOf = (html: string) => JSON.parse(/<script type="application\/json" id="ep-config">([^<]*)<\/script>/.exec(html)![1]!);

/** The token with one character of its signature changed: `at` from the end (1 = the last, whose spare bits decode alike). */
function tampered(url: string, at = 5): string {
  const i = url.length - at;
  return `${url.slice(0, i)}${url[i] === 'A' ? 'B' : 'A'}${url.slice(i + 1)}`;
}

describe('the page shell', () => {
  it('loads the page script and styles from the gateway and hands them the session configuration', async () => {
    const { gw, url } = await checkoutPage();
    const res = await gw.app.inject({ method: 'GET', url: `${pathOf(url)}?ep_version=2026-04-08&ep_color_scheme=dark` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = res.body;
    expect(html).toContain('<link rel="stylesheet" href="https://shop.example/embedded/assets/embedded.css">');
    expect(html).toContain('<script type="module" src="https://shop.example/embedded/assets/page.js"></script>');
    expect(html).toContain('<main id="app"></main>');
    // No inline script: every script element loads a file or is inert JSON.
    for (const tag of html.match(/<script[^>]*>/g)!) expect(tag).toMatch(/ src="|type="application\/json"/);
    expect(configOf(html)).toEqual({
      kind: 'checkout',
      version: '2026-04-08',
      rpc: `${url}/rpc`,
      hostOrigins: HOST_ORIGINS,
      delegate: ['payment.credential', 'fulfillment.address_change'],
      storefrontUrl: STOREFRONT,
      businessName: 'Test Shop',
      // What the page marks required: the tenant's buyer fields, and what a delivery address needs (tax by region).
      required: {
        buyer: ['email'],
        address: ['street_address', 'address_locality', 'address_region', 'postal_code', 'address_country'],
      },
    });
  });

  it('is framed only by the host origins, with a strict CSP, no referrer, no cache and no cookie', async () => {
    const { gw, url } = await checkoutPage();
    const res = await gw.app.inject({ method: 'GET', url: pathOf(url) });
    expect(res.headers['content-security-policy']).toBe(CSP);
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('keeps a hostile business name inert in the markup and the configuration', async () => {
    const name = 'Ann </script><script>alert(1)</script> & "Co"';
    const { gw, url } = await checkoutPage({ tenant: { name } });
    const html = (await gw.app.inject({ method: 'GET', url: pathOf(url) })).body;
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('<title>Checkout · Ann &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;</title>');
    expect(configOf(html).businessName).toBe(name);
  });

  it('serves a cart page for a cart, with the cart delegations', async () => {
    gw = await embeddedGateway({ gateway: { embeddedAssetsDir: assets } });
    const cart = (await gw.carts('mcp').create({ line_items: [line('bouquet_roses', 2)] })).body;
    const html = (await gw.app.inject({ method: 'GET', url: pathOf(cart.continue_url) })).body;
    expect(configOf(html)).toMatchObject({ kind: 'cart', delegate: [], rpc: `${cart.continue_url}/rpc` });
  });
});

describe("at the merchant's own origin (front_door)", () => {
  it("the page, its RPC and its assets are the gateway's; other paths still reach the store", async () => {
    const store = await startStorefront('Flower Shop site');
    try {
      const { gw, url } = await checkoutPage({ tenant: { front_door: { upstream: store.origin } } });
      expect((await gw.app.inject({ method: 'GET', url: pathOf(url) })).statusCode).toBe(200);
      expect((await gw.app.inject({ method: 'GET', url: '/embedded/assets/page.js' })).body).toBe('export const page = 1;\n');
      expect((await gw.app.inject({ method: 'GET', url: '/embedded/checkout/made-up' })).statusCode).toBe(404);
      expect(store.seen).toEqual([]);
      const home = await gw.app.inject({ method: 'GET', url: '/' });
      expect(home.body).toContain('Welcome to Flower Shop site');
      expect(store.seen.map((s) => s.url)).toEqual(['/']);
    } finally {
      await store.close();
    }
  });
});

describe('a page token', () => {
  const expectRefused = async (gw: CheckoutGateway, path: string, status: 404 | 410) => {
    const res = await gw.app.inject({ method: 'GET', url: path });
    expect(res.statusCode).toBe(status);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(CSP);
    expect(res.body).toContain(status === 410 ? 'Page expired' : 'Page not found');
    expect(res.body).not.toContain('ep-config');
  };

  it('altered anywhere, or made up in the readable form tokens once had, gets a 404', async () => {
    const { gw, url } = await checkoutPage();
    const length = url.split('/').at(-1)!.length;
    for (const at of [1, 5, 40, length]) await expectRefused(gw, pathOf(tampered(url, at)), 404);
    const readable = Buffer.from(JSON.stringify(['chk_someone_else', gw.platform.url(), 9_999_999_999])).toString('base64url');
    await expectRefused(gw, `/embedded/checkout/${readable}.${'A'.repeat(22)}`, 404);
  });

  it('guessed, or of another kind, gets a 404', async () => {
    const { gw, url } = await checkoutPage();
    await expectRefused(gw, '/embedded/checkout/abc.AAAAAAAAAAAAAAAAAAAAAA', 404);
    await expectRefused(gw, pathOf(url).replace('/checkout/', '/cart/'), 404);
    await expectRefused(gw, pathOf(url).replace('/checkout/', '/order/'), 404);
  });

  it('past its lifetime gets a 410', async () => {
    const { gw, url } = await checkoutPage();
    gw.clock.now += 599_000;
    expect((await gw.app.inject({ method: 'GET', url: pathOf(url) })).statusCode).toBe(200);
    gw.clock.now += 1_000;
    await expectRefused(gw, pathOf(url), 410);
  });

  it('of another tenant gets a 404, even under the same gateway secret', async () => {
    const secret = GatewaySecret.from('one secret for every replica and tenant');
    const { gw, url } = await checkoutPage({ gateway: { secret } });
    const other = await embeddedGateway({ tenant: { id: 'other-shop' }, gateway: { secret, embeddedAssetsDir: assets } });
    try {
      expect((await gw.app.inject({ method: 'GET', url: pathOf(url) })).statusCode).toBe(200);
      await expectRefused(other, pathOf(url), 404);
    } finally {
      await other.close();
    }
  });
});

describe('the page assets', () => {
  it('serves the built files with their types and a short public cache', async () => {
    gw = await embeddedGateway({ gateway: { embeddedAssetsDir: assets } });
    const js = await gw.app.inject({ method: 'GET', url: '/embedded/assets/page.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toBe('public, max-age=300');
    expect(js.headers['x-content-type-options']).toBe('nosniff');
    expect(js.body).toBe('export const page = 1;\n');
    const module = await gw.app.inject({ method: 'GET', url: '/embedded/assets/ui.render.js' });
    expect(module.body).toBe('export const ui = 2;\n');
    const css = await gw.app.inject({ method: 'GET', url: '/embedded/assets/embedded.css' });
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.body).toBe('main{display:block}\n');
  });

  it('serves nothing else: other kinds, missing files, directories and traversal get a 404', async () => {
    gw = await embeddedGateway({ gateway: { embeddedAssetsDir: join(assets) } });
    for (const path of [
      'notes.txt',
      'missing.js',
      '..%2Fpackage.json',
      '%2E%2E%2F%2E%2E%2Fpackage.json',
      '..',
      '.js',
      'sub/page.js',
      '..%5Cpage.js',
    ]) {
      const res = await gw.app.inject({ method: 'GET', url: `/embedded/assets/${path}` });
      expect(res.statusCode, path).toBe(404);
      expect(res.body).not.toContain('export const');
    }
  });

  it('are looked for in dist/embedded/page of the repository by default', () => {
    expect(defaultAssetsDir()).toBe(join(process.cwd(), 'dist', 'embedded', 'page'));
  });
});
