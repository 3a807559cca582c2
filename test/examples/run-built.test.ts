/**
 * `npm run agent` goes through scripts/run-built.mjs: it runs the compiled tool at once when dist
 * is current and builds first only when a source is newer than the last build. Judged by whether
 * the build ran (a marker file its stand-in build writes), never by a stopwatch.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const runner = resolve('scripts/run-built.mjs');
let dir: string;

function file(path: string, text: string, seconds: number) {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), text);
  utimesSync(join(dir, path), seconds, seconds);
}

const runTool = () => spawnSync(process.execPath, [runner, 'dist/scripts/tool.js', 'a', 'b'], { cwd: dir, encoding: 'utf8' });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'run-built-'));
  const build = `node -e "require('fs').writeFileSync('built', '')"`;
  file('package.json', JSON.stringify({ scripts: { build } }), 1000);
  file('src/main.ts', 'export {};\n', 1000);
  file('dist/scripts/tool.js', "console.log('ran', ...process.argv.slice(2)); process.exitCode = 3;\n", 2000);
  file('dist/tsconfig.build.tsbuildinfo', '{}', 2000);
  file('dist/embedded/page.tsbuildinfo', '{}', 2000);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('scripts/run-built.mjs', () => {
  it('runs the built tool without building when dist is newer than every source, passing its arguments and exit code', () => {
    const result = runTool();
    expect(result.stdout).toBe('ran a b\n');
    expect(result.status).toBe(3);
    expect(existsSync(join(dir, 'built'))).toBe(false);
  });

  it('builds first when a source is newer than the last build', () => {
    utimesSync(join(dir, 'src/main.ts'), 3000, 3000);
    const result = runTool();
    expect(existsSync(join(dir, 'built'))).toBe(true);
    expect(result.stdout).toContain('ran a b');
  });

  it('builds first when dist was never built', () => {
    rmSync(join(dir, 'built'));
    rmSync(join(dir, 'dist/embedded/page.tsbuildinfo'));
    runTool();
    expect(existsSync(join(dir, 'built'))).toBe(true);
  });
});
