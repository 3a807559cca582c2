/**
 * `npm run tenant -- check` and `list`, in-process, against the Shopify and WooCommerce simulators
 * and the reference REST store: one verdict per check, failures said plainly (refused credentials,
 * an unreachable store, webhooks not registered here, a retired API version, an unset variable, an
 * ephemeral key, a broken file beside good ones), "skipped" with the reason where an adapter
 * cannot tell, JSON for scripts, and no secret in anything printed.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseDocument } from 'yaml';
import { createShopifyAdapter } from '../../adapters/shopify/index.js';
import { withDefaults } from '../../adapters/shopify/settings.js';
import { startShopifySimulator, type ShopifySimulator } from '../../simulators/shopify/server.js';
import { DEFAULT_KEY, startWooSimulator, type WooSimulator } from '../../simulators/woocommerce/server.js';
import { run } from '../../scripts/tenant.js';
import { webhookVerdict, withProgress } from '../../scripts/tenant-checks.js';
import { startRestStore, STORE_KEY, STORE_WEBHOOK_SECRET, type TestRestStore } from '../helpers/rest-store.js';
import { mapLikeFlowers, restStoreSettings } from '../helpers/tenant-cli.js';

let shop: ShopifySimulator;
let woo: WooSimulator;
let rest: TestRestStore;
let configDir: string;
/** A port nothing listens on. */
let closedPort: number;

const GOOD_ENV = () => ({
  ACME_STOREFRONT_TOKEN: shop.credentials.storefrontToken,
  ACME_CLIENT_ID: shop.credentials.clientId,
  ACME_CLIENT_SECRET: shop.credentials.clientSecret,
  WOO_CONSUMER_KEY: DEFAULT_KEY.consumerKey,
  WOO_CONSUMER_SECRET: DEFAULT_KEY.consumerSecret,
  WOO_WEBHOOK_SECRET: 'whsec-of-the-woo-tenant',
  FLOWERS_API_SECRET: STORE_KEY.secret,
  FLOWERS_WEBHOOK_SECRET: STORE_WEBHOOK_SECRET,
});
const SECRETS = () => [...Object.values(GOOD_ENV()), DEFAULT_KEY.consumerSecret];

async function tenant(args: string[], env: Record<string, string> = GOOD_ENV()) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(args, { out: (l) => out.push(l), err: (l) => err.push(l) }, { CONFIG_DIR: configDir, ...env });
  const text = [...out, ...err].join('\n');
  for (const secret of SECRETS()) expect(text, 'a secret was printed').not.toContain(secret);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** The verdict of one check of one tenant ("ok: ...", "FAILED: ...", "skipped: ..."), after its padded columns. */
const line = (out: string, id: string, check: string) =>
  out
    .split('\n')
    .map((l) => new RegExp(`^${id} +${check} +(.*)$`).exec(l)?.[1])
    .find((verdict) => verdict !== undefined) ?? '';

beforeAll(async () => {
  [shop, woo, rest] = await Promise.all([
    startShopifySimulator({ shopDomain: 'acme-check.myshopify.com' }),
    startWooSimulator(),
    startRestStore(),
  ]);
  closedPort = await new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
  configDir = mkdtempSync(join(tmpdir(), 'tenant-check-'));
  const made = [
    await tenant([
      'new',
      '--type',
      'shopify',
      '--id',
      'acme',
      '--host',
      'acme.example',
      '--set',
      'shop=acme-check.myshopify.com',
      '--set',
      `api_origin=${shop.url}`,
    ]),
    await tenant(['new', '--type', 'woocommerce', '--id', 'woo', '--host', 'woo.example', '--set', `store_url=${woo.url}`]),
    await tenant(['new', '--type', 'rest', '--id', 'flowers', '--host', 'flowers.example', ...restStoreSettings(rest.origin)]),
  ];
  expect(made.map((m) => m.code)).toEqual([0, 0, 0]);
  mapLikeFlowers(join(configDir, 'tenants', 'flowers.yaml'));
}, 60_000);
afterAll(async () => {
  await Promise.all([shop?.close(), woo?.close(), rest?.close()]);
  rmSync(configDir, { recursive: true, force: true });
});

describe('npm run tenant -- check', () => {
  it('passes what holds and fails the unregistered webhooks, naming the command that registers them', async () => {
    const { code, out } = await tenant(['check']);
    expect(code).toBe(1);
    for (const id of ['acme', 'woo', 'flowers']) {
      expect(line(out, id, 'file')).toMatch(/ok: .*tenants\/\w+\.yaml validates; checkouts finish by handoff$/);
      expect(line(out, id, 'signing key')).toMatch(/ok: signs with \S{43}$/);
      expect(line(out, id, 'credentials')).toMatch(/ok: the store answers with them \(\d+ ms\)$/);
      expect(line(out, id, 'catalog')).toMatch(/ok: a search answers products \(\d+ ms\)$/);
    }
    expect(line(out, 'acme', 'api version')).toMatch(/ok: Shopify supports 2026-10$/);
    expect(line(out, 'woo', 'api version')).toMatch(/ok: WooCommerce 10\.2\.0/);
    expect(line(out, 'acme', 'webhooks')).toContain(
      'FAILED: not registered for https://acme.example/webhooks/backend: ORDERS_CREATE, ORDERS_UPDATED, ORDERS_CANCELLED, ' +
        'FULFILLMENTS_CREATE, FULFILLMENTS_UPDATE, REFUNDS_CREATE; fix: npm run shopify -- webhooks register --tenant acme',
    );
    expect(line(out, 'woo', 'webhooks')).toMatch(
      /FAILED: not registered for .*; fix: npm run woocommerce -- webhooks register --tenant woo$/,
    );
    expect(line(out, 'flowers', 'api version')).toBe("skipped: the rest adapter cannot read the store's API version");
    expect(line(out, 'flowers', 'webhooks')).toBe("skipped: the rest adapter cannot read the store's webhooks");
    expect(out.split('\n').at(-1)).toBe('3 tenant(s): 14 ok, 2 failed, 2 skipped');
  });

  it('passes a tenant whose webhooks are registered here, and says where they go when they go elsewhere', async () => {
    const admin = createShopifyAdapter(withDefaults({ shop: 'acme-check.myshopify.com', api_origin: shop.url }), {
      storefront_token: shop.credentials.storefrontToken,
      admin_token: shop.credentials.adminToken,
      webhook_secret: 'x',
    });
    try {
      await admin.registerWebhooks('https://old-gateway.example/webhooks/backend');
      const elsewhere = await tenant(['check', '--id', 'acme']);
      expect(line(elsewhere.out, 'acme', 'webhooks')).toMatch(
        /; the store sends them to https:\/\/old-gateway\.example\/webhooks\/backend; fix: /,
      );
      await admin.registerWebhooks('https://acme.example/webhooks/backend');
    } finally {
      await admin.close();
    }
    const { code, out } = await tenant(['check', '--id', 'acme']);
    expect(line(out, 'acme', 'webhooks')).toBe('ok: 6 topic(s) delivered to https://acme.example/webhooks/backend');
    expect(code).toBe(0);
  });

  it('says the credentials are refused, and skips what needs them', async () => {
    const { code, out } = await tenant(['check', '--id', 'woo'], { ...GOOD_ENV(), WOO_CONSUMER_SECRET: 'cs_wrong_secret_of_the_test' });
    expect(code).toBe(1);
    expect(line(out, 'woo', 'credentials')).toMatch(
      /^FAILED: GET wc\/v3\/system_status: the store refused the REST API key \(woocommerce_rest_/,
    );
    expect(line(out, 'woo', 'file')).toMatch(/ok: .*validates; the woocommerce adapter reads the store as it starts, and could not$/);
    expect(line(out, 'woo', 'catalog')).toBe('skipped: the credentials check failed');
    expect(out).not.toContain('cs_wrong_secret_of_the_test');
    const shopify = await tenant(['check', '--id', 'acme'], { ...GOOD_ENV(), ACME_CLIENT_SECRET: 'wrong-client-secret' });
    expect(line(shopify.out, 'acme', 'credentials')).toBe(
      'FAILED: Shopify refused the client-credentials grant (invalid_client): check client_id and client_secret',
    );
  });

  it('scrubs every credential it resolved from what it prints, wherever a message would quote it', async () => {
    // A key that is also words of the store's refusal, which comes while the adapter starts (outside the request path's scrubbing).
    const { out } = await tenant(['check', '--id', 'woo'], { ...GOOD_ENV(), WOO_CONSUMER_KEY: 'the consumer key' });
    expect(line(out, 'woo', 'credentials')).toMatch(/; check \[redacted\] and secret and that the key has read permission$/);
  });

  it('says the store is unreachable', async () => {
    const file = join(configDir, 'tenants', 'flowers.yaml');
    const before = readFileSync(file, 'utf8');
    const doc = parseDocument(before);
    doc.setIn(['adapter', 'settings', 'base_url'], `http://127.0.0.1:${closedPort}/api/v2`);
    writeFileSync(file, doc.toString());
    try {
      const { code, out } = await tenant(['check', '--id', 'flowers', '--timeout', '10']);
      expect(code).toBe(1);
      expect(line(out, 'flowers', 'credentials')).toMatch(/FAILED: .*unreachable \(ECONNREFUSED\)/);
    } finally {
      writeFileSync(file, before);
    }
  });

  it('fails a retired Shopify API version, saying which version answers instead', async () => {
    const file = join(configDir, 'tenants', 'acme.yaml');
    const before = readFileSync(file, 'utf8');
    const doc = parseDocument(before);
    doc.setIn(['adapter', 'settings', 'api_version'], '2025-01');
    writeFileSync(file, doc.toString());
    try {
      const { out } = await tenant(['check', '--id', 'acme']);
      expect(line(out, 'acme', 'api version')).toMatch(
        /FAILED: Shopify no longer serves 2025-01: its calls are answered by 2026-10 instead/,
      );
    } finally {
      writeFileSync(file, before);
    }
  });

  it('fails the file of an unset variable, an ephemeral key, and a broken file, and still checks the others', async () => {
    const env: Record<string, string> = { ...GOOD_ENV() };
    delete env.FLOWERS_API_SECRET;
    const demo = join(configDir, 'tenants', 'demo.yaml');
    writeFileSync(demo, 'id: demo\nname: [unclosed\n');
    try {
      const { code, out } = await tenant(['check'], env);
      expect(code).toBe(1);
      expect(line(out, 'flowers', 'file')).toMatch(
        /FAILED: .*flowers\.yaml: \$\.adapter\.credentials\.api_secret: environment variable FLOWERS_API_SECRET is not set$/,
      );
      expect(line(out, 'flowers', 'credentials')).toMatch(/skipped: the file does not validate$/);
      expect(out).toMatch(/tenants\/demo\.yaml +file +FAILED: .*demo\.yaml: not valid YAML/);
      expect(line(out, 'acme', 'catalog')).toMatch(/ok: /);
    } finally {
      rmSync(demo);
    }
    const file = join(configDir, 'tenants', 'woo.yaml');
    const before = readFileSync(file, 'utf8');
    const doc = parseDocument(before);
    doc.set('signing', doc.createNode({ ephemeral_key: true }));
    writeFileSync(file, doc.toString());
    try {
      const { out } = await tenant(['check', '--id', 'woo']);
      expect(line(out, 'woo', 'signing key')).toMatch(/FAILED: ephemeral: a throw-away key per process/);
    } finally {
      writeFileSync(file, before);
    }
  });

  it('answers JSON for scripts, and refuses an unknown tenant', async () => {
    const { out } = await tenant(['check', '--id', 'flowers', '--json']);
    const report = JSON.parse(out) as {
      ok: boolean;
      tenants: Array<{ id: string; adapter: string; checks: Array<{ check: string; status: string }> }>;
    };
    expect(report.ok).toBe(true);
    expect(report.tenants.map((t) => [t.id, t.adapter])).toEqual([['flowers', 'rest']]);
    expect(report.tenants[0]!.checks.map((c) => `${c.check}:${c.status}`)).toEqual([
      'file:ok',
      'signing key:ok',
      'credentials:ok',
      'api version:skipped',
      'webhooks:skipped',
      'catalog:ok',
    ]);
    const unknown = await tenant(['check', '--id', 'nobody']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/no tenant "nobody" in .*tenants \(acme, flowers, woo\)/);
  });
});

describe('npm run tenant -- list', () => {
  it('shows each tenant with its adapter, hosts, finishing mode and health', async () => {
    const { code, out } = await tenant(['list']);
    expect(code).toBe(0);
    const rows = out.split('\n');
    expect(rows[0]).toMatch(/^ID +ADAPTER +HOSTS +FINISHING +HEALTH$/);
    expect(rows.slice(1).map((r) => r.split(/ {2,}/).slice(0, 4))).toEqual([
      ['acme', 'shopify', 'acme.example', 'handoff'],
      ['flowers', 'rest', 'flowers.example', 'handoff'],
      ['woo', 'woocommerce', 'woo.example', 'handoff'],
    ]);
    for (const row of rows.slice(1)) expect(row).toMatch(/ok \(\d+ ms\)$/);
    const listed = await tenant(['list', '--json'], { ...GOOD_ENV(), WOO_CONSUMER_KEY: 'ck_wrong_key_of_the_test' });
    const health = (JSON.parse(listed.out) as Array<{ id: string; health: string; detail: string }>).map((r) => [r.id, r.health]);
    expect(health).toEqual([
      ['acme', 'ok'],
      ['flowers', 'ok'],
      ['woo', 'down'],
    ]);
  });
});

describe('npm run tenant -- list, against a store that never answers', () => {
  it("gives up at the deadline, the adapter's start included, and says so", async () => {
    const silent = createServer((socket) => socket.on('error', () => undefined)).listen(0, '127.0.0.1');
    await new Promise((resolve) => silent.once('listening', resolve));
    const dir = mkdtempSync(join(tmpdir(), 'tenant-silent-'));
    try {
      const { port } = silent.address() as { port: number };
      const made = await run(
        ['new', '--dir', dir, '--type', 'woocommerce', '--id', 'woo', '--set', `store_url=http://127.0.0.1:${port}`],
        { out: () => undefined, err: () => undefined },
        {},
      );
      expect(made).toBe(0);
      const started = performance.now();
      const { out } = await tenant(['list', '--dir', dir, '--timeout', '1']);
      expect(out.split('\n')[1]).toMatch(/^woo +woocommerce +every host +- +down \(no answer within 1 s\)$/);
      expect(performance.now() - started).toBeLessThan(4_000); // the adapter's own start deadline is 5 s
    } finally {
      silent.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the pieces', () => {
  it('judges webhooks: missing, delivered elsewhere, disabled by the store, all here', () => {
    const url = 'https://gw.example/webhooks/backend';
    const needed = ['order.created', 'order.updated'];
    expect(webhookVerdict({ needed, registered: [] }, url, 'npm run x').detail).toBe(
      `not registered for ${url}: order.created, order.updated; fix: npm run x`,
    );
    const disabled = webhookVerdict(
      {
        needed,
        registered: [
          { topic: 'order.created', url, active: true },
          { topic: 'order.updated', url, active: false },
        ],
      },
      url,
      undefined,
    );
    expect(disabled).toEqual({ check: 'webhooks', status: 'failed', detail: 'disabled by the store: order.updated' });
    const here = needed.map((topic) => ({ topic, url, active: true }));
    expect(webhookVerdict({ needed, registered: here }, url, undefined).status).toBe('ok');
  });

  it('reports a slow check after a second and every five seconds after, and stops when it answers', async () => {
    vi.useFakeTimers();
    try {
      const waited: number[] = [];
      let answer!: (value: string) => void;
      const running = withProgress(
        () => new Promise<string>((resolve) => (answer = resolve)),
        (s) => waited.push(s),
      );
      await vi.advanceTimersByTimeAsync(999);
      expect(waited).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      await vi.advanceTimersByTimeAsync(10_000);
      expect(waited).toEqual([1, 6, 11]);
      answer('done');
      await expect(running).resolves.toBe('done');
      await vi.advanceTimersByTimeAsync(60_000);
      expect(waited).toEqual([1, 6, 11]);
    } finally {
      vi.useRealTimers();
    }
  });
});
