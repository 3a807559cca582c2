/**
 * The REST adapter's configuration: the flowers tenant file loads like any tenant; a JSONata
 * syntax error, an unknown credential name or a shared function that is not one stops start-up
 * naming the file and the JSON path; money converts exactly for currencies with 0, 2 and 3
 * decimals; each auth scheme puts its credential where the store expects it.
 */
import { createHmac } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillTemplate, signer } from '../../../adapters/rest/auth.js';
import { moneyFunctions } from '../../../adapters/rest/money.js';
import { ConfigError } from '../../../adapters/kit/config-error.js';
import { MemoryStore } from '../../../src/state/memory-store.js';
import { loadTenants } from '../../../src/tenancy/load.js';

const ENV = { FLOWERS_STORE_API_SECRET: 'api-secret-123456', FLOWERS_STORE_WEBHOOK_SECRET: 'hook-secret-123456' };

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rest-tenant-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const lineOf = (text: string, needle: string) => text.slice(0, text.indexOf(needle)).split('\n').length;

/** Loads the flowers tenant file after `edit` changed its text. */
async function loadFlowers(edit: (text: string) => string = (t) => t) {
  const tenants = join(dir, 'tenants');
  rmSync(tenants, { recursive: true, force: true });
  cpSync(join(process.cwd(), 'config/rest-demo/tenants'), tenants, { recursive: true });
  const file = join(tenants, 'flowers.yaml');
  writeFileSync(file, edit(readFileSync(file, 'utf8')));
  const store = new MemoryStore();
  try {
    return await loadTenants(dir, { env: ENV, now: Date.now, store });
  } finally {
    await store.close();
  }
}

describe('REST adapter settings', () => {
  it('loads the flowers tenant file as a rest tenant with what its store can do', async () => {
    const registry = await loadFlowers();
    const [tenant] = registry.tenants;
    expect(tenant!.adapter.kind).toBe('rest');
    expect(tenant!.adapter.capabilities).toMatchObject({
      lookupKeys: ['sku', 'handle'],
      rejectionReasons: true,
      finishing: ['gateway_charged', 'store_charged', 'handoff'],
    });
    await registry.close();
  });

  it('stops start-up on a JSONata syntax error, naming the file, line and column and the JSON path', async () => {
    let line = 0;
    const failure = loadFlowers((t) => {
      const edited = t.replace(`response: '{"url": url, "storeReference": cart_id}'`, `response: '{"url": url'`);
      line = lineOf(edited, `response: '{"url": url'`);
      return edited;
    });
    await expect(failure).rejects.toBeInstanceOf(ConfigError);
    await expect(failure).rejects.toThrow(
      new RegExp(
        `flowers\\.yaml:${line}:\\d+: \\$\\.adapter\\.settings\\.operations\\.checkout_url\\.response is not a valid JSONata expression`,
      ),
    );
  });

  it('names the line and column in the tenant file of an unknown function inside an inline shared function', async () => {
    let at = { line: 0, column: 0 };
    const failure = loadFlowers((t) => {
      const edited = t.replace('"subtotal": $amount($c.totals.items)', '"subtotal": $amont($c.totals.items)');
      at = { line: lineOf(edited, '$amont('), column: edited.split('\n')[lineOf(edited, '$amont(') - 1]!.indexOf('$amont(') + 1 };
      return edited;
    });
    await expect(failure).rejects.toThrow(
      new RegExp(`flowers\\.yaml:${at.line}:${at.column} \\(in function \\$quote\\): unknown function \\$amont`),
    );
  });

  it('stops start-up on a syntax error in a shared function', async () => {
    await expect(loadFlowers((t) => t.replace('function($a) { $a ? {"first_name"', 'function($a { $a ? {"first_name"'))).rejects.toThrow(
      /\$\.adapter\.settings\.functions\.storeAddress is not a valid JSONata expression/,
    );
  });

  it('stops start-up on a credential name the tenant does not define', async () => {
    await expect(loadFlowers((t) => t.replace('secret: api_secret', 'secret: api_secrte'))).rejects.toThrow(
      'flowers.yaml: $.adapter.settings.auth.secret names the credential "api_secrte", which $.adapter.credentials does not define',
    );
  });

  it('stops start-up on a shared function that is not a function', async () => {
    await expect(
      loadFlowers((t) => t.replace(/storeAddress: \|\n(\s+)function/, 'storeAddress: |\n$1"not a function" & function')),
    ).rejects.toThrow(/functions\.storeAddress (must be a JSONata function|cannot be evaluated)/);
  });
});

describe('REST adapter money', () => {
  it('converts decimal strings with the currency exponent, exactly', () => {
    const { money, storeMoney } = moneyFunctions('decimal', 'USD');
    expect(money('19.99')).toBe(1999);
    expect(money('0.10')).toBe(10);
    expect(money('3500', 'JPY')).toBe(3500);
    expect(money('1.250', 'KWD')).toBe(1250);
    expect(money(35.5)).toBe(3550);
    expect(() => money('1.5', 'JPY')).toThrow('more decimals than JPY allows');
    expect(() => money('12.345')).toThrow();
    expect(storeMoney(1999)).toBe('19.99');
    expect(storeMoney(5, 'KWD')).toBe('0.005');
    expect(storeMoney(3500, 'JPY')).toBe('3500');
    expect(money(undefined)).toBeUndefined();
  });

  it('takes minor units as integers (or integer strings) and nothing else', () => {
    const { money, storeMoney } = moneyFunctions('minor', 'USD');
    expect(money(1999)).toBe(1999);
    expect(money('1999')).toBe(1999);
    expect(() => money('19.99')).toThrow('expected an amount in minor units');
    expect(() => money(19.99)).toThrow();
    expect(storeMoney(1999)).toBe(1999);
  });
});

describe('REST adapter auth', () => {
  const credentials: Record<string, string> = { user: 'ck_user', pass: 'cs_pass', key: 'key-123', secret: 'hmac-secret' };
  const credential = (name: string) => credentials[name]!;
  const request = { method: 'POST', target: '/api/carts?x=1', body: '{"a":1}' };

  it('sends bearer, basic and API-key credentials in their headers', () => {
    expect(signer({ type: 'bearer', token: 'key' }, credential)(request, 0)).toEqual({ authorization: 'Bearer key-123' });
    expect(signer({ type: 'basic', username: 'user', password: 'pass' }, credential)(request, 0)).toEqual({
      authorization: `Basic ${Buffer.from('ck_user:cs_pass').toString('base64')}`,
    });
    expect(signer({ type: 'api_key', header: 'X-Api-Key', key: 'key', prefix: 'Key ' }, credential)(request, 0)).toEqual({
      'x-api-key': 'Key key-123',
    });
  });

  it('signs the time, method, path and body with HMAC as the template says', () => {
    const sign = signer(
      {
        type: 'hmac',
        secret: 'secret',
        signature_header: 'X-Sig',
        timestamp_header: 'X-Time',
        timestamp_format: 'iso',
        payload: '{timestamp}|{method}|{path}|{body}',
        encoding: 'base64',
        headers: { 'X-Key-Id': 'k1' },
      },
      credential,
    );
    const headers = sign(request, Date.parse('2026-03-10T12:00:00Z'));
    const expected = createHmac('sha256', 'hmac-secret').update('2026-03-10T12:00:00.000Z|POST|/api/carts?x=1|{"a":1}').digest('base64');
    expect(headers).toEqual({ 'x-key-id': 'k1', 'x-time': '2026-03-10T12:00:00.000Z', 'x-sig': expected });
    expect(fillTemplate('{a}\\n{b}', { a: '1', b: '2' })).toBe('1\n2');
  });
});
