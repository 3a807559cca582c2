/**
 * What a browser test needs: the gateway on loopback (the real demo store) with the embedded
 * transport on, the host example on another origin (the only one allowed to frame the page), and a
 * third, foreign origin that is not allowed.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { vi } from 'vitest';
import { startHost, type HostServer } from '../../../examples/embedded-host/server.js';
import { freePort } from '../../../scripts/free-port.js';
import type { TenantConfig } from '../../../src/config/tenant-schema.js';
import { demoGateway, type DemoGateway, type DemoGatewayOptions } from '../../helpers/demo-gateway.js';

export const VERSION = '2026-04-08';

export interface World {
  gateway: DemoGateway;
  gatewayOrigin: string;
  host: HostServer;
  foreign: { origin: string; close(): Promise<void> };
  close(): Promise<void>;
}

export interface LoggedMessage {
  direction: 'in' | 'out';
  via: 'window' | 'port';
  message: { id?: string; method?: string; params?: Record<string, any>; result?: Record<string, any>; error?: unknown };
}

/** A page on a foreign origin that writes to the embedded page (the host's first frame) and keeps what comes back. */
async function startForeign(): Promise<World['foreign']> {
  const html = `<!doctype html><title>foreign</title><script>
window.received = [];
addEventListener('message', (event) => window.received.push(event.data));
const target = parent.frames[0];
target.postMessage({ jsonrpc: '2.0', id: 'ready_1', result: { proto: { version: '${VERSION}', status: 'success' } } }, '*');
target.postMessage({ jsonrpc: '2.0', id: 'forged_1', method: 'ec.payment.credential_request', params: {} }, '*');
</script>`;
  const server: Server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/**
 * `tenant` may name the host's profile (`${host origin}/.well-known/proto`), for credentials issued
 * to it; `host.apiKey` is the API key the host example holds.
 */
export async function startWorld(
  tenant: Partial<TenantConfig> | ((hostProfile: string) => Partial<TenantConfig>) = {},
  hostOptions: { apiKey?: string } = {},
  demo: DemoGatewayOptions['demo'] = {},
): Promise<World> {
  const port = await freePort();
  const gatewayOrigin = `http://127.0.0.1:${port}`;
  const host = await startHost({ port: 0, gateway: gatewayOrigin, ...hostOptions });
  const foreign = await startForeign();
  const gateway = await demoGateway({
    demo,
    tenant: {
      name: 'Petal & Stem',
      base_url: gatewayOrigin,
      embedded: {
        enabled: true,
        host_origins: [host.origin],
        delegate: { checkout: ['payment.credential', 'fulfillment.address_change'] },
      },
      ...(typeof tenant === 'function' ? tenant(`${host.origin}/.well-known/proto`) : tenant),
    },
  });
  await gateway.app.listen({ port, host: '127.0.0.1' });
  return {
    gateway,
    gatewayOrigin,
    host,
    foreign,
    async close() {
      await Promise.all([gateway.close(), host.close(), foreign.close()]);
    },
  };
}

/** The host example's message log (window.hostLog). */
export const hostLog = (page: Page): Promise<LoggedMessage[]> => page.evaluate(() => (globalThis as any).hostLog as LoggedMessage[]);

/** Waits until the host logged a message from the page with this method; returns it. */
export async function received(page: Page, method: string, nth = 0): Promise<LoggedMessage['message']> {
  await page.waitForFunction(
    ([m, n]) => ((globalThis as any).hostLog as LoggedMessage[]).filter((e) => e.direction === 'in' && e.message.method === m).length > n,
    [method, nth] as const,
  );
  return (await hostLog(page)).filter((e) => e.direction === 'in' && e.message.method === method)[nth]!.message;
}

export const inbound = async (page: Page) => (await hostLog(page)).filter((e) => e.direction === 'in');

/** The embedded page's frame in the host page, once its script has rendered something. */
export async function embedded(page: Page): Promise<Frame> {
  const element = await page.waitForSelector('#stage iframe');
  const frame = await element.contentFrame();
  if (!frame) throw new Error('the host shows no frame');
  await frame.waitForSelector('#app > *');
  return frame;
}

/** Presses Tab until the focused element's data-key is `key` (or starts with it, for `prefix*`): the keyboard path a buyer takes. */
export async function tabTo(page: Page, frame: Frame, key: string, limit = 80): Promise<void> {
  const matches = (active: string | undefined) =>
    active !== undefined && (key.endsWith('*') ? active.startsWith(key.slice(0, -1)) : active === key);
  for (let i = 0; i < limit; i++) {
    if (matches(await frame.evaluate(() => (globalThis as any).document.activeElement?.dataset?.key))) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${key}`);
}

/** The host example in a fresh browser context (at this window size), started with these query parameters. */
export async function openHost(
  browser: Browser,
  world: World,
  query: string,
  viewport?: { width: number; height: number },
): Promise<{ page: Page; context: BrowserContext }> {
  const context = await browser.newContext(viewport && { viewport });
  // A step that never happens fails with its own name, well before the test's timeout.
  context.setDefaultTimeout(8000);
  const page = await context.newPage();
  await page.goto(`${world.host.origin}/?autostart=1&${query}`);
  return { page, context };
}

/** Runs the buyer's action and waits for the next notification of this method it causes. */
export async function notified(page: Page, method: string, action: () => Promise<unknown>): Promise<LoggedMessage['message']> {
  const before = (await inbound(page)).filter((e) => e.message.method === method).length;
  await action();
  return received(page, method, before);
}

/** Types a discount code and applies it. */
export async function applyCode(frame: Frame, code: string): Promise<void> {
  await frame.fill('[data-key="discount-code"]', code);
  await frame.click('[data-key="discount-apply"]');
}

/** Waits (bounded) for a notification of this method whose params satisfy `test`; returns it. */
export async function notifiedWhen(
  page: Page,
  method: string,
  test: (params: Record<string, any>) => boolean,
): Promise<LoggedMessage['message']> {
  return vi.waitFor(
    async () => {
      const found = (await inbound(page)).find((e) => e.message.method === method && test(e.message.params ?? {}));
      if (!found) throw new Error(`no ${method} of that kind yet`);
      return found.message;
    },
    { timeout: 8000, interval: 50 },
  );
}

/**
 * Contact and a Chicago address: the page then picks the first delivery option (standard
 * shipping) by itself, which makes the demo checkout ready_for_complete.
 */
export async function shipToChicago(page: Page, frame: Frame): Promise<void> {
  await notified(page, 'ec.buyer.change', async () => {
    await frame.fill('[data-key="buyer-email"]', 'ann@example.com');
    await frame.click('[data-key="buyer-save"]');
  });
  await frame.fill('[data-key="ship-street_address"]', '123 Main St');
  await frame.fill('[data-key="ship-address_locality"]', 'Chicago');
  await frame.fill('[data-key="ship-address_region"]', 'IL');
  await frame.fill('[data-key="ship-postal_code"]', '60601');
  await frame.click('[data-key="address-save"]');
  await notifiedWhen(page, 'ec.fulfillment.change', (params) => params.checkout.status === 'ready_for_complete');
}
