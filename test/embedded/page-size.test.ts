/**
 * The embedded page stays small (issue 16: its script and styles together at most 60 KB gzipped):
 * the page is compiled as the build compiles it and every file the browser may load is measured.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';

const LIMIT = 60 * 1024;
let out: string;

beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), 'page-size-'));
  const tsc = resolve('node_modules/typescript/bin/tsc');
  // Emitted as the build emits it, without type checking (`npm run typecheck` checks the page): the
  // same files in about half the time, and the schemas' declarations (types only) are not needed.
  await promisify(execFile)(process.execPath, [
    tsc,
    '-p',
    'src/embedded/page/tsconfig.json',
    '--noCheck',
    '--outDir',
    out,
    '--tsBuildInfoFile',
    join(out, 'page.tsbuildinfo'),
  ]);
}, 60_000);
afterAll(() => rm(out, { recursive: true, force: true }));

it('its modules and stylesheet together are at most 60 KB gzipped', async () => {
  const scripts = (await readdir(out)).filter((name) => name.endsWith('.js'));
  expect(scripts).toContain('page.js');
  const stylesheet = await readFile('src/embedded/page/embedded.css');
  const files = [...(await Promise.all(scripts.map((name) => readFile(join(out, name))))), stylesheet];
  // Each file is its own response, so each is compressed on its own.
  const gzipped = files.reduce((sum, body) => sum + gzipSync(body, { level: 9 }).length, 0);
  expect(gzipped).toBeGreaterThan(0);
  expect(gzipped).toBeLessThanOrEqual(LIMIT);
});
