/**
 * `npm run tenant -- new` writes tenant files from the schemas: for every adapter of the build, the
 * file validates and the gateway starts it as it would at start-up, every secret is a reference
 * with what it is beside it, every required setting carries its description, and what is missing
 * or wrong is said before anything is written.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { ConfigError } from '../../adapters/kit/config-error.js';
import { ADAPTERS, ADAPTER_TYPES } from '../../adapters/registry.js';
import { readTenantFile, tenantValidator } from '../../src/config/load-tenants.js';
import { buildTenant } from '../../src/tenancy/tenant.js';
import { MemoryStore } from '../../src/state/memory-store.js';
import { compile } from '../../schemas/validator.js';
import { generateTenant, type TenantRequest } from '../../scripts/tenant-template.js';
import { newTenant } from '../../scripts/tenant-new.js';

/** The required settings of each adapter, with stores that are not there (nothing here reaches a store). */
const SAMPLES: Record<string, string[]> = {
  memory: [`data_dir=${resolve('config/demo')}`, 'storefront_url=https://flowers.example'],
  rest: ['base_url=http://127.0.0.1:9/api', 'storefront_url=http://127.0.0.1:9', 'currencies=USD,EUR', 'money=minor'],
  shopify: ['shop=acme.myshopify.com', 'api_origin=http://127.0.0.1:9'],
  // The currency lets the adapter start without its store, as a tenant file may say.
  woocommerce: ['store_url=http://127.0.0.1:9', 'currency=USD'],
  medusa: ['backend_url=http://127.0.0.1:9', 'storefront_url=http://127.0.0.1:9'],
};

let configDir: string;
beforeEach(() => {
  configDir = mkdtempSync(join(tmpdir(), 'tenant-new-'));
});
afterEach(() => rmSync(configDir, { recursive: true, force: true }));

const definition = (type: string) => ADAPTERS.find((a) => a.type === type)!;
const request = (set: string[], more: Partial<TenantRequest> = {}): TenantRequest => ({
  id: 'acme',
  hosts: ['shop.acme.example'],
  set,
  secrets: 'env',
  signing: { ref: { file: '../keys/acme.jwk' }, kid: 'kid' },
  ...more,
});

async function run(options: Record<string, unknown>) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await newTenant(
    { id: 'acme', hosts: ['shop.acme.example'], set: [], secrets: 'env', configDir, type: 'shopify', ...options },
    { out: (l) => out.push(l), err: (l) => err.push(l) },
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const written = (id = 'acme') => readFileSync(join(configDir, 'tenants', `${id}.yaml`), 'utf8');

describe('a new tenant file, per adapter', () => {
  it('has samples for every adapter of the build', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual([...ADAPTER_TYPES].sort());
  });

  it.each(ADAPTER_TYPES)('%s: validates, references every secret, and starts as start-up starts it', async (type) => {
    await run({ type, set: SAMPLES[type] });
    const file = join(configDir, 'tenants', 'acme.yaml');
    const loaded = readTenantFile(file, configDir, tenantValidator(ADAPTER_TYPES));
    expect(compile(definition(type).settings)(loaded.config.adapter.settings).ok).toBe(true);
    const credentials = Object.entries(loaded.config.adapter.credentials ?? {});
    for (const [name, ref] of credentials) expect(ref).toEqual({ env: `ACME_${name.toUpperCase()}` });
    const env = Object.fromEntries(credentials.map(([name]) => [`ACME_${name.toUpperCase()}`, `${name}-value-for-the-test`]));
    const started = buildTenant(loaded, { env, now: Date.now, store: new MemoryStore() });
    if (type === 'medusa') {
      // The Medusa adapter reads its store as it starts: everything before it was accepted.
      const error = await started.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(ConfigError);
    } else {
      const tenant = await started;
      expect(tenant.security.keyring.active?.kid).toBe(loaded.config.signing?.active_kid);
      await tenant.adapter.close?.();
    }
  });

  it.each(ADAPTER_TYPES)('%s: every required setting and secret has what it is as a comment above it', async (type) => {
    const generated = generateTenant(definition(type), request(SAMPLES[type]!));
    const lines = generated.yaml.split('\n');
    const schema = definition(type).settings as unknown as { required?: string[]; properties: Record<string, { description?: string }> };
    for (const name of schema.required ?? []) {
      const at = lines.findIndex((l) => l.trimStart().startsWith(`${name}:`) && l.startsWith('    '));
      const description = schema.properties[name]!.description;
      expect(description, `${type} ${name} has no description`).toBeTruthy();
      expect(lines[at - 1], name).toMatch(/^\s+# \S/);
      expect(
        lines
          .slice(0, at)
          .reverse()
          .filter((_, i, above) => above.slice(0, i + 1).every((l) => l.trimStart().startsWith('#')))
          .reverse()
          .map((l) => l.trim().replace(/^# /, ''))
          .join(' '),
      ).toBe(description);
    }
    for (const secret of generated.secrets) {
      const at = lines.findIndex((l) => l.trimStart().startsWith(`${secret.credential}: {env: `));
      expect(lines[at - 1]!.trim(), secret.credential).toMatch(/^# \S/);
    }
  });
});

describe('settings from --set', () => {
  it('types each value by the schema: lists, numbers, booleans, JSON objects', () => {
    const woo = generateTenant(
      definition('woocommerce'),
      request(['store_url=https://shop.example', 'request_timeout_ms=5000', 'query_string_auth=true']),
    );
    expect(woo.config.adapter.settings).toEqual({ store_url: 'https://shop.example', request_timeout_ms: 5000, query_string_auth: true });
    const shop = generateTenant(
      definition('shopify'),
      request(['shop=acme.myshopify.com', 'markets=[{"country":"US","currency":"USD"},{"country":"JP","currency":"JPY"}]']),
    );
    expect(shop.config.adapter.settings.markets).toEqual([
      { country: 'US', currency: 'USD' },
      { country: 'JP', currency: 'JPY' },
    ]);
    expect(generateTenant(definition('rest'), request(SAMPLES.rest!)).config.adapter.settings.currencies).toEqual(['USD', 'EUR']);
  });

  it('names every missing required setting with what it is, and writes nothing', async () => {
    const refused = await run({ type: 'rest', set: ['money=minor'] }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ConfigError);
    expect((refused as Error).message).toBe(
      [
        'a rest tenant needs these settings; give each with --set NAME=VALUE:',
        "  base_url: The store API's root, e.g. https://shop.example/api/v2 (no trailing slash needed).",
        "  storefront_url: The store's home page (continue_url when there is nothing to hand over).",
        "  currencies: Presentment currencies, the store's default first.",
      ].join('\n'),
    );
    expect(() => written()).toThrow(/ENOENT/);
  });

  it('refuses a setting the adapter does not have, and a value its schema refuses', () => {
    expect(() => generateTenant(definition('shopify'), request(['shop=acme.myshopify.com', 'colour=red']))).toThrow(
      '--set colour=red: a shopify tenant has no setting colour ' +
        '(settings: shop, api_version, api_origin, storefront_url, markets, carrier_rates, language)',
    );
    expect(() => generateTenant(definition('woocommerce'), request(['store_url=https://shop.example', 'request_timeout_ms=5']))).toThrow(
      '--set: $.adapter.settings.request_timeout_ms must be >= 100',
    );
  });

  it('references the credentials the settings name (REST auth and webhooks), as files with --secrets file', () => {
    const set = [
      ...SAMPLES.rest!,
      'auth.type=hmac',
      'auth.secret=api_secret',
      'auth.signature_header=X-Sig',
      'webhooks.secret=webhook_secret',
    ];
    const generated = generateTenant(definition('rest'), request(set, { secrets: 'file' }));
    expect(generated.config.adapter.credentials).toEqual({
      api_secret: { file: '../secrets/acme/api_secret' },
      webhook_secret: { file: '../secrets/acme/webhook_secret' },
    });
    expect(generated.yaml).toContain('    # named by adapter.settings.auth.secret\n    api_secret: {file: ../secrets/acme/api_secret}');
  });

  it('lists the optional settings and credentials, each with its first sentence', () => {
    const { yaml } = generateTenant(definition('shopify'), request(SAMPLES.shopify!));
    expect(yaml).toContain('    #   api_version: The Admin and Storefront API version; default 2026-10.');
    expect(yaml).toContain('    #   admin_token: A static Admin API token (older custom apps), instead of client_id and client_secret.');
    expect(parseYaml(yaml)).toMatchObject({ base_url: 'https://shop.acme.example', hosts: ['shop.acme.example'] });
  });
});

describe('npm run tenant -- new, in the config folder', () => {
  it('writes the signing key for the owner only and prints the variables and the next steps, never a value', async () => {
    const { code, out } = await run({ set: SAMPLES.shopify });
    expect(code).toBe(0);
    expect(statSync(join(configDir, 'keys', 'acme.jwk')).mode & 0o777).toBe(0o600);
    expect(out).toMatch(/^ {2}ACME_STOREFRONT_TOKEN {2}Storefront API private token/m);
    expect(out).toContain('  - webhooks: npm run shopify -- webhooks register --tenant acme');
    expect(out).toContain('  - check: npm run tenant -- check --id acme');
    expect(out).not.toContain(JSON.parse(readFileSync(join(configDir, 'keys', 'acme.jwk'), 'utf8')).d);
  });

  it('refuses to overwrite a tenant file or a key, leaving both as they were', async () => {
    await run({ set: SAMPLES.shopify });
    const before = written();
    await expect(run({ set: ['shop=other.myshopify.com'] })).rejects.toThrow(/tenants\/acme\.yaml already exists; it is left as it is/);
    expect(written()).toBe(before);
    rmSync(join(configDir, 'tenants', 'acme.yaml'));
    await expect(run({ set: SAMPLES.shopify })).rejects.toThrow(/keys\/acme\.jwk already exists/);
  });

  it('refuses a host another tenant routes, and a tenant without a route beside others; warns of an unrouted one', async () => {
    mkdirSync(join(configDir, 'tenants'));
    writeFileSync(
      join(configDir, 'tenants', 'demo.yaml'),
      'id: demo\nname: Demo\nadapter: { type: memory, settings: { data_dir: x, storefront_url: https://x.example } }\ncapabilities: {}\n',
    );
    const warned = await run({ set: SAMPLES.shopify });
    expect(warned.out).toMatch(/warning: .*demo\.yaml has no hosts or path_prefix: with several tenants the gateway refuses to start/);
    await expect(run({ id: 'other', set: SAMPLES.shopify })).rejects.toThrow(/host "shop\.acme\.example" is already used by/);
    await expect(run({ id: 'third', hosts: [], set: SAMPLES.shopify })).rejects.toThrow(/give this one --host \(or --path-prefix\)/);
  });
});
