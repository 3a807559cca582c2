/**
 * `npm run screenshots`: the embedded checkout inside the host example, at 390×844 and 1280×800,
 * light and dark, written to docs/images/. It runs the real thing: the gateway (dist/src/main.js,
 * the demo tenant with the host's origin allowed, on free ports) and the host example, driven by
 * Debian's Chromium through playwright-core (CHROMIUM_PATH, default /usr/bin/chromium).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { chromium, type Frame, type Page } from 'playwright-core';
import { parseDocument } from 'yaml';
import { freePort } from './free-port.js';
import { startHost } from '../examples/embedded-host/server.js';
import { exitOnHelp } from './cli-help.js';

const built = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = resolve('docs/images');
const SIZES = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
];
const SCHEMES = ['light', 'dark'] as const;

/** The demo tenant file, with the host example's origin allowed and its paths made absolute. */
function tenantDir(hostOrigin: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'screenshots-'));
  const doc = parseDocument(readFileSync('config/tenants/demo.yaml', 'utf8'));
  doc.setIn(['adapter', 'settings', 'data_dir'], resolve('config/demo'));
  doc.setIn(['embedded', 'host_origins'], [hostOrigin]);
  doc.deleteIn(['simulation']);
  mkdirSync(join(dir, 'tenants'));
  writeFileSync(join(dir, 'tenants', 'demo.yaml'), doc.toString());
  return dir;
}

/** Starts the gateway and resolves once it says it listens. */
function startGateway(port: number, configDir: string): Promise<ChildProcess> {
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', CONFIG_DIR: configDir, LOG_LEVEL: 'info' };
  const child = spawn(process.execPath, [join(built, 'src/main.js')], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((done, fail) => {
    child.once('exit', (code) => fail(new Error(`the gateway exited with ${code}`)));
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      if (line.includes('Server listening')) done(child);
    });
  });
}

/**
 * The browser globals the evaluated functions use (this script compiles without the DOM library):
 * the example host's log of the messages it received (examples/embedded-host/public/host.js).
 */
interface HostWindow {
  hostLog?: Array<{ message: { method?: string } }>;
  document: { activeElement: { blur?: () => void } | null };
  scrollTo(x: number, y: number): void;
}

const started = (page: Page) =>
  page.waitForFunction(() => ((globalThis as unknown as HostWindow).hostLog ?? []).some((e) => e.message.method === 'ec.start'));
const changes = (page: Page) =>
  page.evaluate(() => ((globalThis as unknown as HostWindow).hostLog ?? []).filter((e) => e.message.method?.endsWith('.change')).length);

/** Fills in what a buyer would, so the picture shows options, totals and a discount. */
async function walk(page: Page, frame: Frame): Promise<void> {
  const step = async (action: () => Promise<unknown>) => {
    const before = await changes(page);
    await action();
    await page.waitForFunction(
      (n) => ((globalThis as unknown as HostWindow).hostLog ?? []).filter((e) => e.message.method?.endsWith('.change')).length > n,
      before,
    );
  };
  await step(async () => {
    await frame.fill('[data-key="discount-code"]', '10OFF');
    await frame.click('[data-key="discount-apply"]');
  });
  await step(async () => {
    await frame.fill('[data-key="buyer-email"]', 'ann@example.com');
    await frame.click('[data-key="buyer-save"]');
  });
  await step(async () => {
    await frame.fill('[data-key="ship-street_address"]', '123 Main St');
    await frame.fill('[data-key="ship-address_locality"]', 'Chicago');
    await frame.fill('[data-key="ship-address_region"]', 'IL');
    await frame.fill('[data-key="ship-postal_code"]', '60601');
    await frame.click('[data-key="address-save"]');
  });
  // The page then picks the first delivery option by itself: the checkout is ready to pay.
  await frame.waitForSelector('[data-key$="-std-ship"]:checked');
  await frame.waitForSelector('[data-key="pay"]:not([disabled])');
}

async function main(): Promise<void> {
  const gatewayPort = await freePort();
  const gatewayOrigin = `http://127.0.0.1:${gatewayPort}`;
  const host = await startHost({ port: 0, gateway: gatewayOrigin });
  const configDir = tenantDir(host.origin);
  const gateway = await startGateway(gatewayPort, configDir);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    mkdirSync(OUT, { recursive: true });
    for (const size of SIZES) {
      for (const scheme of SCHEMES) {
        const context = await browser.newContext({ viewport: size, colorScheme: scheme });
        const page = await context.newPage();
        await page.goto(`${host.origin}/?autostart=1&kind=checkout&pay=0&scheme=${scheme}`);
        await started(page);
        const frame = (await (await page.waitForSelector('#stage iframe')).contentFrame())!;
        await walk(page, frame);
        await frame.evaluate(() => {
          const window = globalThis as unknown as HostWindow;
          window.document.activeElement?.blur?.();
          window.scrollTo(0, 0);
        });
        await page.evaluate(() => (globalThis as unknown as HostWindow).scrollTo(0, 0));
        const file = join(OUT, `embedded-checkout-${size.width}x${size.height}-${scheme}.png`);
        await page.screenshot({ path: file });
        process.stdout.write(`wrote ${file}\n`);
        await context.close();
      }
    }
  } finally {
    await browser.close();
    gateway.kill('SIGTERM');
    await host.close();
    rmSync(configDir, { recursive: true, force: true });
  }
}

exitOnHelp({
  script: 'screenshots',
  commands: [
    {
      usage: '',
      does: 'writes docs/images/embedded-*.png: the embedded checkout in the host example, 390x844 and 1280x800, light and dark',
    },
  ],
  notes: ["environment: CHROMIUM_PATH (default /usr/bin/chromium, Debian's)"],
});
main().catch((error: unknown) => {
  process.stderr.write(`screenshots failed: ${(error as Error).message}\n`);
  process.exitCode = 1;
});
