/**
 * The README's install command, as a newcomer's shell runs it (the machine's own npm and Node on
 * PATH, none of the project's): npm runs on the project's pinned Node, so a fresh install prints
 * no engine warning even where the machine's Node is older than the packages want (Node 20 here:
 * this package wants >= 24.11, oidc-provider's cookie@2 and content-disposition@3 want >= 22).
 * `--dry-run` resolves the whole tree and checks every engine without writing node_modules.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readmeSections } from './helpers/readme.js';

const exec = promisify(execFile);
const pinned = (JSON.parse(await readFile('package.json', 'utf8')) as { devDependencies: Record<string, string> }).devDependencies.node!;

/** The environment outside `npm test`: no node_modules/.bin on PATH, no npm_* settings. */
function newcomerEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!/^npm_/i.test(name) && name !== 'NODE') env[name] = value;
  env.PATH = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => !/node_modules[\\/]\.bin|node-gyp-bin/.test(dir))
    .join(delimiter);
  return env;
}

describe("the README's install command", { timeout: 180_000 }, () => {
  let dir: string;
  let install: string;
  beforeAll(async () => {
    install = readmeSections(await readFile('README.md', 'utf8'))
      .intro[0]!.split('\n')[0]!
      .split(' && ')[0]!;
    dir = await mkdtemp(join(tmpdir(), 'proto-install-'));
    for (const file of ['package.json', 'package-lock.json']) await copyFile(file, join(dir, file));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('runs npm on the pinned Node from the registry', () => {
    expect(install).toBe(`npx -y -p node@${pinned} -- npm install`);
  });

  it('installs with no engine warning on a machine whose Node is older', async () => {
    const { stdout, stderr } = await exec('bash', ['-c', `${install} --dry-run --no-audit --no-fund`], {
      cwd: dir,
      env: newcomerEnv(),
      maxBuffer: 16 * 1024 * 1024,
    });
    expect(stdout).toMatch(/added \d+ packages/);
    expect(`${stdout}${stderr}`).not.toContain('EBADENGINE');
  });
});
