/**
 * `npm run demo:host` as a process: it listens where HOST_PORT says (0: a free port) and prints
 * that address, serves the host page and the agent's profile, and creates sessions at the gateway
 * found through PORT (as `npm start` uses it), answering with the gateway's embedded page URL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { demoGateway, type DemoGateway } from '../helpers/demo-gateway.js';

let gateway: DemoGateway;
let child: ChildProcess;
let origin: string;

beforeAll(async () => {
  // The demo tenant's embedded setting: only http://127.0.0.1:9100 may frame its pages.
  const embedded = { enabled: true, host_origins: ['http://127.0.0.1:9100'], delegate: { checkout: ['payment.credential' as const] } };
  gateway = await demoGateway({ tenant: { embedded } });
  await gateway.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (gateway.app.server.address() as { port: number }).port;
  const main = join(inject('gatewayBuild'), 'examples/embedded-host/main.js');
  child = spawn(process.execPath, [main], {
    env: { ...process.env, HOST_PORT: '0', PORT: String(port), GATEWAY_URL: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((done, fail) => {
    child.once('exit', (code) => fail(new Error(`demo:host exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', done);
  });
  origin = /on (http:\/\/127\.0\.0\.1:\d+) /.exec(line)?.[1] ?? '';
  expect(line).toContain(`sessions from http://127.0.0.1:${port}`);
});
afterAll(async () => {
  child?.kill('SIGTERM');
  await gateway?.close();
});

it('prints the address it really listens on and serves the host page there', async () => {
  expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:(?!9100)\d+$/);
  const page = await fetch(`${origin}/`);
  expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(await page.text()).toContain('<script type="module" src="/host.js"></script>');
  expect((await fetch(`${origin}/../package.json`)).status).toBe(404);
});

it('creates a checkout at the gateway as the agent whose profile it serves', async () => {
  const profile = (await (await fetch(`${origin}/.well-known/proto`)).json()) as { proto: { capabilities: Record<string, unknown> } };
  expect(Object.keys(profile.proto.capabilities)).toContain('dev.proto.shopping.checkout');
  const response = await fetch(`${origin}/api/sessions`, { method: 'POST', body: JSON.stringify({ kind: 'checkout' }) });
  expect(response.ok).toBe(true);
  const checkout = (await response.json()) as { id: string; line_items: Array<{ item: { id: string } }> };
  expect(checkout.id).toMatch(/^chk_/);
  expect(checkout.line_items.map((l) => l.item.id)).toEqual(['bouquet_roses']);
  // The demo tenant lets only port 9100 frame its pages: a host elsewhere says why its frame stays empty.
  expect(response.headers.get('host-warning')).toBe(
    `the gateway lets only http://127.0.0.1:9100 frame its pages, not this host (${origin}): ` +
      'run demo:host with HOST_PORT=9100, or add ' +
      origin +
      " to the tenant's embedded.host_origins",
  );
});
