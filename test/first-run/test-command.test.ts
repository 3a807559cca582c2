/**
 * The README's second command on a fresh clone (scripts/test-all.sh behind `npm run test:all`): it
 * sets the machine up and runs every suite, and where it cannot set it up it runs nothing and says
 * what to install. Driven with a PATH lacking the prerequisites (stubs stand in for apt-get, id,
 * npx and vitest), so nothing is uninstalled and no suite runs twice.
 */
import { execFile } from 'node:child_process';
import { access, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freshClone, type FreshClone } from './helpers/fresh-clone.js';
import { readmeSections } from './helpers/readme.js';
import { stubBin, type StubBin } from './helpers/stub-bin.js';

const exec = promisify(execFile);
const PACKAGES = 'php-cli redis-server chromium curl jq prometheus';
const pinned = (JSON.parse(await readFile('package.json', 'utf8')) as { devDependencies: Record<string, string> }).devDependencies.node!;

let clone: FreshClone;
let bin: StubBin;
beforeAll(async () => {
  clone = await freshClone();
});
afterAll(async () => {
  await clone?.remove();
});
beforeEach(async () => {
  bin = await stubBin();
});
afterEach(async () => {
  await bin.remove();
});

/** `command` in the clone with only the stub folder on PATH; resolves whatever the exit code. */
async function run(command: string, args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await exec(command, args, { cwd: clone.dir, env: { HOME: process.env.HOME!, ...bin.env, ...env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const medusaInstalled = () =>
  access(join(clone.dir, 'examples/medusa-store/node_modules')).then(
    () => true,
    () => false,
  );

describe("the README's test command", () => {
  it('is npm run test:all, the command .ci/run ends with, unchanged', async () => {
    const [, second] = readmeSections(await clone.readme()).intro[0]!.split('\n');
    expect(second).toMatch(/^npm run test:all\s+#/);
    const ci = (await readFile(join(clone.dir, '.ci/run'), 'utf8')).trim().split('\n');
    expect(ci.at(-1)).toBe('npm run test:all');
    expect(ci.filter((line) => /^npm (test|run test)/.test(line))).toEqual(['npm run test:all']);
  });
});

describe('install commands in the README and docs', () => {
  it('run npm on the pinned Node, as the first command does (no EBADENGINE on an older machine Node)', async () => {
    const { stdout } = await exec('git', ['ls-files', 'README.md', 'docs/*.md', 'docs/**/*.md']);
    const commands: string[] = [];
    for (const file of stdout.split('\n').filter(Boolean)) {
      const markdown = await readFile(file, 'utf8');
      for (const [, block] of markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)) {
        commands.push(...block!.split('\n').filter((line) => /(^|&& |; )npm (ci|install)\b|npx .*-- npm (ci|install)\b/.test(line)));
      }
    }
    expect(commands.length).toBeGreaterThanOrEqual(3); // the first command, the Medusa store in the README and its guide
    for (const command of commands)
      expect(command).toMatch(new RegExp(`^npx -y -p node@${pinned.replaceAll('.', '\\.')} -- npm (ci|install)\\b`));
  });
});

describe('where it cannot set the machine up', () => {
  it.each([
    { where: 'without apt-get (not Debian)', why: 'there is no apt-get here', setup: async () => {} },
    {
      where: 'as a user that is not root, without sudo',
      why: 'it is not running as root',
      setup: async () => {
        await bin.stubAptGet();
        await bin.stub('id', 'echo 1000');
      },
    },
  ])('$where: one message lists exactly what to install, and nothing runs', async ({ why, setup }) => {
    await setup();
    await bin.stub('npx');
    const { code, stdout, stderr } = await run('npm', ['run', 'test:all']);
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      expect.stringContaining(`npm run test:all cannot set this machine up: ${why}`),
      `  apt-get install -y ${PACKAGES}   (Debian packages, as root)`,
    ]);
    expect(stdout).not.toContain('==');
    // Nothing installed, started or run: no apt-get install, no Medusa store, no suite.
    expect(await bin.calls()).toEqual(why.includes('root') ? ['id -u'] : []);
    expect(await medusaInstalled()).toBe(false);
  });
});

describe('where it can (root on Debian)', () => {
  beforeEach(async () => {
    await bin.stubAptGet();
    await bin.stub('id', 'echo 0');
    // npm ci makes the folder's node_modules.
    await bin.stub('npx', 'for a in "$@"; do [ "$last" = --prefix ] && mkdir -p "$a/node_modules"; last=$a; done');
    await bin.stub('vitest');
  });

  it('installs the missing packages and the Medusa store on the pinned Node, starts Redis, runs every suite; then only runs', async () => {
    const first = await run('bash', ['scripts/test-all.sh', '--project', 'unit']);
    expect(first.code, first.stderr).toBe(0);
    const installed = await bin.calls();
    expect(installed).toEqual([
      'id -u',
      'apt-get update -qq',
      `apt-get install -y -qq ${PACKAGES}`,
      `npx -y -p node@${pinned} -- npm ci --no-audit --no-fund --prefix examples/medusa-store`,
      'redis-cli -h 127.0.0.1 -p 6379 ping',
      'redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save  --appendonly no',
      'redis-cli -h 127.0.0.1 -p 6379 ping',
      'vitest run --project unit',
    ]);

    const again = await run('bash', ['scripts/test-all.sh']);
    expect(again.code, again.stderr).toBe(0);
    expect((await bin.calls()).slice(installed.length)).toEqual(['redis-cli -h 127.0.0.1 -p 6379 ping', 'vitest run']);
  });

  it('installs the Medusa store again once its lock file changed', async () => {
    expect((await run('bash', ['scripts/test-all.sh'])).code).toBe(0);
    const lock = join(clone.dir, 'examples/medusa-store/package-lock.json');
    const original = await readFile(lock, 'utf8');
    try {
      await writeFile(lock, original.replace('"lockfileVersion": 3', '"lockfileVersion": 3 '));
      const before = (await bin.calls()).length;
      expect((await run('bash', ['scripts/test-all.sh'])).code).toBe(0);
      expect((await bin.calls()).slice(before).filter((call) => call.startsWith('npx'))).toHaveLength(1);
    } finally {
      await writeFile(lock, original);
    }
  });
});
