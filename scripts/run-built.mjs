// Runs a compiled entry point (`node scripts/run-built.mjs dist/scripts/agent.js ...args`),
// building first only when a source is newer than the last build: `tsc -b` alone takes about a
// second to find nothing to do, on every call of a command-line tool. Plain JavaScript, so it runs
// before anything is built. Judged by file times, as `tsc -b` judges them.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SOURCES = ['src', 'adapters', 'schemas', 'scripts', 'bench', 'examples', 'simulators'];
const BUILD_INFO = ['dist/tsconfig.build.tsbuildinfo', 'dist/embedded/page.tsbuildinfo'];

const mtime = (path) => statSync(path, { throwIfNoEntry: false })?.mtimeMs;

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) latest = Math.max(latest, mtime(join(entry.parentPath, entry.name)) ?? 0);
  }
  return latest;
}

function current() {
  const built = BUILD_INFO.map(mtime);
  if (built.some((time) => time === undefined)) return false;
  const sources = Math.max(
    ...SOURCES.filter((dir) => mtime(dir) !== undefined).map(newest),
    ...['tsconfig.json', 'tsconfig.build.json'].map((f) => mtime(f) ?? 0),
  );
  return sources <= Math.min(...built);
}

const [entry, ...args] = process.argv.slice(2);
if (!current()) {
  const build = spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const run = spawnSync(process.execPath, [entry, ...args], { stdio: 'inherit' });
process.exit(run.status ?? 1);
