/**
 * `npm run rest -- check --tenant <id> [--live]`: compiles a tenant's mappings as start-up does
 * (a broken one named by file and line), and with --live runs each read operation once against
 * the store, printing what each step sent and got, never the credentials.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { REFERENCE_FILE, tenantReference } from '../../../scripts/rest-reference.js';
import { formattedReference, run } from '../../../scripts/rest.js';
import { STORE_KEY, STORE_WEBHOOK_SECRET, startRestStore, type TestRestStore } from '../../helpers/rest-store.js';

const ENV = { FLOWERS_STORE_API_SECRET: STORE_KEY.secret, FLOWERS_STORE_WEBHOOK_SECRET: STORE_WEBHOOK_SECRET };

let store: TestRestStore;
let dir: string;
beforeAll(async () => {
  store = await startRestStore();
  dir = mkdtempSync(join(tmpdir(), 'rest-check-'));
  cpSync(join(process.cwd(), 'examples/rest-tenants'), dir, { recursive: true });
  const file = join(dir, 'tenants/flowers-cart.yaml');
  const doc = parseDocument(readFileSync(file, 'utf8'));
  doc.setIn(['adapter', 'settings', 'base_url'], `${store.origin}/api/v2`);
  doc.setIn(['adapter', 'settings', 'storefront_url'], store.origin);
  writeFileSync(file, doc.toString());
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await store.close();
});

async function check(args: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(args, { out: (l) => out.push(l), err: (l) => err.push(l) }, { ...ENV, CONFIG_DIR: dir, ...env });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('npm run rest -- check', () => {
  it('compiles the example tenant of the repository', async () => {
    const { code, out } = await check(['check', '--tenant', 'flowers-cart'], { CONFIG_DIR: 'examples/rest-tenants' });
    expect(out).toContain('flowers-cart: every mapping compiles');
    expect(code).toBe(0);
  });

  it('runs each read operation once with --live, showing what each step sent and got, without the credentials', async () => {
    const { code, out } = await check(['check', '--tenant', 'flowers-cart', '--live']);
    expect(out).toContain('ping: ok');
    expect(out).toMatch(/search: ok, 3 product\(s\), more pages/);
    expect(out).toMatch(/call: GET \/items\?page=1&per_page=3 → 200 \{"data":\[/);
    expect(out).toContain('lookup: ok, 1 result(s)');
    expect(out).toContain('find_order: ok, no order for a made-up reference');
    expect(out).toContain('get_order: ok, no such order');
    expect(out).toContain('authenticate_customer: ok, a made-up login is refused, as expected');
    expect(out).not.toContain(STORE_KEY.secret);
    expect(code).toBe(0);
  });

  it('fails naming the file and line of a broken mapping', async () => {
    const search = join(dir, 'tenants/mappings/flowers-cart/search.jsonata');
    const good = readFileSync(search, 'utf8');
    writeFileSync(search, good.replace('"more": meta.page < meta.total_pages', '"more": $mor(meta.page)'));
    try {
      const { code, err } = await check(['check', '--tenant', 'flowers-cart']);
      expect(err).toMatch(/configuration error: .*search\.jsonata:5:\d+: unknown function \$mor/);
      expect(code).toBe(1);
    } finally {
      writeFileSync(search, good);
    }
  });

  it('compiles without any secret set, and lists the variables the tenant needs at run time', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await run(
      ['check', '--tenant', 'flowers'],
      { out: (l) => out.push(l), err: (l) => err.push(l) },
      {
        CONFIG_DIR: 'config/rest-demo',
      },
    );
    expect(err).toEqual([]);
    expect(code).toBe(0);
    expect(out.join('\n')).toContain('flowers: every mapping compiles');
    expect(out.join('\n')).toMatch(/FLOWERS_STORE_API_SECRET \(credential api_secret\): not set here/);
    expect(out.join('\n')).toMatch(/FLOWERS_STORE_WEBHOOK_SECRET \(credential webhook_secret\): not set here/);
  });

  it('lists the variables of settings from the environment too, set or not, and checks them with placeholders', async () => {
    const file = join(dir, 'tenants/flowers-cart.yaml');
    const doc = parseDocument(readFileSync(file, 'utf8'));
    doc.setIn(['adapter', 'settings', 'base_url'], doc.createNode({ env: 'CART_STORE_URL' }));
    doc.setIn(['adapter', 'settings', 'max_calls_per_run'], doc.createNode({ env: 'CART_MAX_CALLS' }));
    const envDir = mkdtempSync(join(tmpdir(), 'rest-check-env-'));
    cpSync(dir, envDir, { recursive: true });
    writeFileSync(join(envDir, 'tenants/flowers-cart.yaml'), doc.toString());
    const out: string[] = [];
    const code = await run(
      ['check', '--tenant', 'flowers-cart'],
      { out: (l) => out.push(l), err: (l) => out.push(l) },
      {
        CONFIG_DIR: envDir,
        CART_MAX_CALLS: '200',
      },
    );
    rmSync(envDir, { recursive: true, force: true });
    expect(out.join('\n')).toContain('flowers-cart: every mapping compiles');
    expect(out.join('\n')).toMatch(/CART_STORE_URL \(\$\.adapter\.settings\.base_url\): not set here/);
    expect(out.join('\n')).toMatch(/CART_MAX_CALLS \(\$\.adapter\.settings\.max_calls_per_run\): set/);
    expect(code).toBe(0);
  });

  it("runs the README's example as written: CONFIG_DIR and no secret", async () => {
    const readme = readFileSync('README.md', 'utf8');
    const command = /^(CONFIG_DIR=(\S+) npm run rest -- (check --tenant (\S+)))$/m.exec(readme);
    expect(command).not.toBeNull();
    const out: string[] = [];
    const code = await run(command![3]!.split(' '), { out: (l) => out.push(l), err: (l) => out.push(l) }, { CONFIG_DIR: command![2]! });
    expect(code).toBe(0);
    for (const name of ['FLOWERS_STORE_API_SECRET', 'FLOWERS_STORE_WEBHOOK_SECRET']) {
      expect(out.join('\n')).toContain(name);
      expect(readme).toContain(name);
    }
  });

  it('says how to use it', async () => {
    const { code, err } = await check(['check']);
    expect(err).toMatch(/^usage:\n {2}npm run rest -- check --tenant <id> \[--live\]/);
    expect(code).toBe(2);
  });

  it('keeps the generated tenant-file reference current with the schemas', async () => {
    expect(readFileSync(REFERENCE_FILE, 'utf8')).toBe(await formattedReference());
    expect(tenantReference()).toContain('| `adapter.settings.operations.<operation>.steps[].for_each` |');
  });

  it('describes every top-level key of the tenant file, from the schema', () => {
    const rows = tenantReference()
      .split('\n')
      .filter((line) => /^\| `[a-z_0-9]+` \|/.test(line));
    expect(rows.length).toBeGreaterThan(15);
    // The description cell starts with the schema's sentence, not just a pattern or nothing.
    expect(rows.filter((row) => !/^[A-Z`]/.test(row.split(' | ')[3] ?? ''))).toEqual([]);
  });
});
