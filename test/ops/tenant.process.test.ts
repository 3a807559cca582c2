/**
 * The agency's day with `npm run tenant`, every program its own process as an operator runs them:
 * the Shopify and WooCommerce simulators (`npm run simulator:shopify`, `simulator:woocommerce`) and
 * the reference REST store (examples/rest-store) are the clients' stores; `tenant new` adds a
 * client on each, `tenant check` reports each, and reports the failures plainly (webhooks not
 * registered, refused credentials, a store that is down), `tenant list` shows them with their
 * health, a slow store gets progress lines, and no secret is ever printed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { mapLikeFlowers, restStoreSettings } from '../helpers/tenant-cli.js';

const build = inject('gatewayBuild');
const STORE_SECRETS = { api: 'api-secret-of-the-reference-store', webhook: 'webhook-secret-of-the-reference-store' };
const WOO_WEBHOOK_SECRET = 'woo-webhook-secret-the-agency-chose';

interface Store {
  child: ChildProcess;
  url: string;
  /** Everything it printed (its credentials among it). */
  banner: string;
}

const started: ChildProcess[] = [];

/** Starts a program of the build and waits for its banner: the line that says where it listens, up to the line `last`. */
function startStore(entry: string, args: string[], env: Record<string, string>, listening: RegExp, last = listening): Promise<Store> {
  const child = spawn(process.execPath, [join(build, entry), ...args], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let banner = '';
  return new Promise((done, fail) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      banner += `${line}\n`;
      const url = listening.exec(banner)?.[1];
      if (url && last.test(line)) done({ child, url, banner });
    });
    child.once('exit', (code) => fail(new Error(`${entry} exited with ${code} before listening`)));
  });
}

/** A tool of the build as a process: its exit code and what it printed. */
function tool(entry: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [join(build, entry), ...args], { env: { PATH: process.env.PATH, ...env } });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  return new Promise((done) => child.once('close', (code) => done({ code, out, err })));
}

let shop: Store;
let woo: Store;
let rest: Store;
let configDir: string;
let env: Record<string, string>;
let secrets: string[];

const tenant = async (args: string[], extra: Record<string, string> = {}) => {
  const result = await tool('scripts/tenant.js', args, { ...env, ...extra });
  for (const secret of [...secrets, ...Object.values(extra)]) expect(result.out + result.err, 'a secret was printed').not.toContain(secret);
  return result;
};
const verdict = (out: string, id: string, check: string) =>
  out
    .split('\n')
    .map((l) => new RegExp(`^${id} +${check} +(.*)$`).exec(l)?.[1])
    .find((v) => v !== undefined) ?? '';

beforeAll(async () => {
  [shop, woo, rest] = await Promise.all([
    startStore('simulators/shopify/main.js', ['--port', '0'], {}, /listening on (http:\/\/\S+)/, /client_secret/),
    startStore('scripts/woocommerce-simulator.js', [], { PORT: '0' }, /listening on (http:\/\/\S+)/, /WOO_CONSUMER_SECRET/),
    startStore(
      'examples/rest-store/main.js',
      [],
      {
        STORE_PORT: '0',
        STORE_KEY_ID: 'flowers-gateway',
        STORE_API_SECRET: STORE_SECRETS.api,
        STORE_WEBHOOK_SECRET: STORE_SECRETS.webhook,
      },
      /"store":"(http:\/\/[^"]+)"/,
    ),
  ]);
  const printed = (name: string, banner: string) => new RegExp(`${name}[ =:]+(\\S+?)[),]?(\\s|$)`).exec(banner)![1]!;
  const shopCredentials = {
    ACME_STOREFRONT_TOKEN: printed('Shopify-Storefront-Private-Token', shop.banner),
    ACME_CLIENT_ID: printed('client_id', shop.banner),
    ACME_CLIENT_SECRET: printed('client_secret', shop.banner),
  };
  env = {
    CONFIG_DIR: (configDir = mkdtempSync(join(tmpdir(), 'agency-'))),
    ...shopCredentials,
    WOO_CONSUMER_KEY: printed('WOO_CONSUMER_KEY', woo.banner),
    WOO_CONSUMER_SECRET: printed('WOO_CONSUMER_SECRET', woo.banner),
    WOO_WEBHOOK_SECRET,
    FLOWERS_API_SECRET: STORE_SECRETS.api,
    FLOWERS_WEBHOOK_SECRET: STORE_SECRETS.webhook,
  };
  secrets = Object.entries(env).flatMap(([name, value]) => (name === 'CONFIG_DIR' ? [] : [value]));
}, 60_000);

afterAll(() => {
  for (const child of started) child.kill();
  if (configDir) rmSync(configDir, { recursive: true, force: true });
});

describe('npm run tenant, for an agency with three clients', { timeout: 120_000 }, () => {
  it('adds a Shopify, a WooCommerce and a REST client, each file with references and the steps left', async () => {
    const set = ['--set', 'shop=petal-and-stem.myshopify.com', '--set', `api_origin=${shop.url}`];
    const shopify = await tenant(['new', '--type', 'shopify', '--id', 'acme', '--host', 'acme.example', '--name', 'Acme Flowers', ...set]);
    expect(shopify.code).toBe(0);
    expect(shopify.out).toContain('  ACME_CLIENT_SECRET     ');
    expect(shopify.out).toContain('  - webhooks: npm run shopify -- webhooks register --tenant acme');
    const wooNew = await tenant(['new', '--type', 'woocommerce', '--id', 'woo', '--host', 'woo.example', '--set', `store_url=${woo.url}`]);
    expect(wooNew.out).toContain('  - webhooks: npm run woocommerce -- webhooks register --tenant woo');
    const restNew = await tenant(['new', '--type', 'rest', '--id', 'flowers', '--host', 'flowers.example', ...restStoreSettings(rest.url)]);
    expect(restNew.out).toMatch(/^ {2}FLOWERS_API_SECRET +named by adapter\.settings\.auth\.secret$/m);
    expect([wooNew.code, restNew.code]).toEqual([0, 0]);
    // The REST store's own API is mapped in its file, as the operator does next.
    mapLikeFlowers(join(configDir, 'tenants', 'flowers.yaml'));
    const again = await tenant(['new', '--type', 'shopify', '--id', 'acme', '--host', 'other.example', '--set', 'shop=x.myshopify.com']);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/acme\.yaml already exists; it is left as it is/);
    expect(readFileSync(join(configDir, 'tenants', 'acme.yaml'), 'utf8')).toContain('name: Acme Flowers');
  });

  it('checks each client against its store: webhooks not registered fail, with the command that registers them', async () => {
    const { code, out } = await tenant(['check']);
    expect(code).toBe(1);
    for (const id of ['acme', 'woo', 'flowers']) {
      expect(verdict(out, id, 'file')).toMatch(/^ok: .*validates; checkouts finish by handoff$/);
      expect(verdict(out, id, 'credentials')).toMatch(/^ok: /);
      expect(verdict(out, id, 'catalog')).toMatch(/^ok: a search answers products/);
    }
    expect(verdict(out, 'acme', 'webhooks')).toMatch(
      /^FAILED: not registered for https:\/\/acme\.example\/webhooks\/backend: ORDERS_CREATE.*; fix: npm run shopify -- webhooks register --tenant acme$/,
    );
    expect(verdict(out, 'woo', 'webhooks')).toMatch(
      /^FAILED: not registered for .*; fix: npm run woocommerce -- webhooks register --tenant woo$/,
    );
    expect(verdict(out, 'flowers', 'webhooks')).toBe("skipped: the rest adapter cannot read the store's webhooks");
    expect(verdict(out, 'acme', 'api version')).toBe('ok: Shopify supports 2026-10');
  });

  it('passes every client once the per-platform commands registered their webhooks', async () => {
    const shopify = await tool('scripts/shopify.js', ['webhooks', 'register', '--tenant', 'acme'], env);
    const wooRegister = await tool('scripts/woocommerce.js', ['webhooks', 'register', '--tenant', 'woo'], env);
    expect([shopify.code, wooRegister.code], shopify.err + wooRegister.err).toEqual([0, 0]);
    const { code, out } = await tenant(['check']);
    expect(out).not.toMatch(/FAILED/);
    expect(verdict(out, 'acme', 'webhooks')).toBe('ok: 6 topic(s) delivered to https://acme.example/webhooks/backend');
    expect(verdict(out, 'woo', 'webhooks')).toBe('ok: 5 topic(s) delivered to https://woo.example/webhooks/backend');
    expect(code).toBe(0);
    const json = JSON.parse((await tenant(['check', '--json'])).out) as { ok: boolean; tenants: Array<{ id: string }> };
    expect(json.ok).toBe(true);
    expect(json.tenants.map((t) => t.id)).toEqual(['acme', 'flowers', 'woo']);
  });

  it('says when the credentials are wrong', async () => {
    const { code, out } = await tenant(['check', '--id', 'acme'], { ACME_CLIENT_SECRET: 'not-the-client-secret' });
    expect(code).toBe(1);
    expect(verdict(out, 'acme', 'credentials')).toBe(
      'FAILED: Shopify refused the client-credentials grant (invalid_client): check client_id and client_secret',
    );
    const wrongKey = await tenant(['check', '--id', 'flowers'], { FLOWERS_API_SECRET: 'not-the-api-secret' });
    expect(verdict(wrongKey.out, 'flowers', 'credentials')).toMatch(/^FAILED: .*401/);
  });

  it('lists the clients with their health, and says which store is down once it stops', async () => {
    const up = await tenant(['list']);
    expect(up.code).toBe(0);
    expect(up.out.split('\n')[0]).toMatch(/^ID +ADAPTER +HOSTS +FINISHING +HEALTH$/);
    expect(up.out).toMatch(/^flowers +rest +flowers\.example +handoff +ok \(\d+ ms\)$/m);
    rest.child.kill();
    await new Promise((done) => rest.child.once('exit', done));
    const down = await tenant(['list']);
    expect(down.out).toMatch(/^flowers +rest +flowers\.example +handoff +down \(.*unreachable \(ECONNREFUSED\)\)$/m);
    expect(down.out).toMatch(/^acme +shopify +acme\.example +handoff +ok /m);
    const { code, out } = await tenant(['check', '--id', 'flowers']);
    expect(code).toBe(1);
    expect(verdict(out, 'flowers', 'credentials')).toMatch(/^FAILED: .*the store is unreachable \(ECONNREFUSED\)$/);
    expect(verdict(out, 'flowers', 'catalog')).toBe('skipped: the credentials check failed');
  });

  it('shows progress while a slow store answers', async () => {
    const slow = await startStore('simulators/shopify/main.js', ['--port', '0', '--latency', '1500'], {}, /listening on (http:\/\/\S+)/);
    const dir = mkdtempSync(join(tmpdir(), 'agency-slow-'));
    try {
      const set = ['--set', 'shop=petal-and-stem.myshopify.com', '--set', `api_origin=${slow.url}`];
      await tenant(['new', '--dir', dir, '--type', 'shopify', '--id', 'acme', ...set]);
      const { out, err } = await tenant(['check', '--dir', dir]);
      expect(verdict(out, 'acme', 'catalog')).toMatch(/^ok: /);
      expect(err).toMatch(/^acme: (credentials|api version|webhooks|catalog): still waiting for the store \(1 s\)$/m);
    } finally {
      slow.child.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
