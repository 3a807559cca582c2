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
