/**
 * `npm run demo:rest` as a newcomer runs it (the compiled script): the reference store and the
 * gateway come up, the gateway on PORT and advertising that port, the flowers tenant answers a
 * search through the store, and Ctrl-C stops both processes.
 */
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePorts } from '../../helpers/redis-server.js';
import { startPlatform, type PlatformServer } from '../../helpers/platform.js';
import { buildGateway } from '../../ops/helpers/gateway-process.js';

let build: Awaited<ReturnType<typeof buildGateway>>;
let platform: PlatformServer;
beforeAll(async () => {
  build = await buildGateway();
  platform = await startPlatform();
}, 180_000);
afterAll(async () => {
  await platform?.close();
  await build?.remove();
});

const refuses = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(true));
  });

it('starts the store and the gateway on PORT, serves the flowers tenant through the store, and stops both on Ctrl-C', async () => {
  const [port] = (await freePorts(1)) as [number];
  const child = spawn(process.execPath, [join(build.dir, 'scripts/demo-rest.js')], {
    env: { PATH: process.env.PATH, PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const lines = createInterface({ input: child.stdout });
  const banner: string[] = [];
  await new Promise<void>((resolve, reject) => {
    lines.on('line', (line) => {
      banner.push(line);
      if (line.startsWith('gateway:')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`demo:rest exited with ${code}`)));
  });
  const storePort = Number(/reference store: http:\/\/127\.0\.0\.1:(\d+)/.exec(banner.join('\n'))![1]);
  expect(banner.join('\n')).toContain(`gateway:         http://127.0.0.1:${port} (tenant flowers, REST adapter)`);

  const origin = `http://127.0.0.1:${port}`;
  // Until the gateway listens (bounded generously: a busy machine starts processes slowly).
  let profile: Response | undefined;
  for (let n = 0; n < 600 && !profile?.ok; n++) {
    profile = await fetch(`${origin}/.well-known/proto`).catch(() => undefined);
    if (!profile?.ok) await new Promise((r) => setTimeout(r, 100));
  }
  expect(JSON.stringify(await profile!.json())).toContain(`"endpoint":"${origin}"`);
  const search = await fetch(`${origin}/catalog/search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'proto-agent': platform.agent(), 'request-id': 'demo-rest-1' },
    body: JSON.stringify({ query: 'roses' }),
  });
  const found = (await search.json()) as { products: Array<{ id: string; variants: Array<{ price: { amount: number } }> }> };
  expect(found.products.find((p) => p.id === 'bouquet_roses')?.variants[0]?.price.amount).toBe(3500);

  child.kill('SIGINT');
  expect(await exited).toBe(0);
  expect(await refuses(port)).toBe(true);
  expect(await refuses(storePort)).toBe(true);
}, 120_000);
