/**
 * A PATH for driving scripts/test-all.sh on a machine that lacks what the suites need, without
 * uninstalling anything: a folder holding only the basic commands (links to this machine's), plus
 * stubs that log each call. The apt-get stub "installs" a package by copying in stubs of the
 * commands it provides, so later lookups find them, as after a real install.
 */
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What npm, node and the script itself need; nothing the script provisions. */
const BASICS = ['bash', 'sh', 'env', 'node', 'npm', 'sha256sum', 'seq', 'sleep', 'cp', 'mkdir', 'grep'];

/** The commands the Debian packages the script installs provide (a stub each). */
const PACKAGES: Record<string, Record<string, string>> = {
  'php-cli': { php: '' },
  // Its redis-cli answers a ping only once its redis-server has been started.
  'redis-server': { 'redis-server': '', 'redis-cli': `grep -q '^redis-server ' "$STUB_LOG"` },
  chromium: { chromium: '' },
  curl: { curl: '' },
  jq: { jq: '' },
  prometheus: { prometheus: '' },
};

export interface StubBin {
  /** The folder to use as PATH. */
  dir: string;
  /** The environment of a run: PATH the folder, the stubs' log. */
  env: Record<string, string>;
  /** The stubs' calls so far, one line each: the command and its arguments. */
  calls(): Promise<string[]>;
  /** A stub for `command` in the folder that logs its call, then runs `body` (sh). */
  stub(command: string, body?: string): Promise<void>;
  /** apt-get as on Debian: `install` copies in the stubs of each package's commands. */
  stubAptGet(): Promise<void>;
  remove(): Promise<void>;
}

async function writeStub(path: string, command: string, body: string): Promise<void> {
  await writeFile(path, `#!/bin/sh\necho "${command} $*" >> "$STUB_LOG"\n${body}\n`);
  await chmod(path, 0o755);
}

export async function stubBin(): Promise<StubBin> {
  const root = await mkdtemp(join(tmpdir(), 'proto-stub-bin-'));
  const dir = join(root, 'bin');
  const log = join(root, 'calls.log');
  await mkdir(dir);
  await writeFile(log, '');
  for (const command of BASICS) {
    await symlink(execFileSync('bash', ['-c', `command -v ${command}`], { encoding: 'utf8' }).trim(), join(dir, command));
  }
  return {
    dir,
    env: { PATH: dir, STUB_LOG: log },
    calls: async () => (await readFile(log, 'utf8')).split('\n').filter(Boolean),
    stub: (command, body = '') => writeStub(join(dir, command), command, body),
    async stubAptGet() {
      for (const [pkg, commands] of Object.entries(PACKAGES)) {
        await mkdir(join(root, 'packages', pkg), { recursive: true });
        for (const [command, body] of Object.entries(commands)) await writeStub(join(root, 'packages', pkg, command), command, body);
      }
      const install = `for arg in "$@"; do case "$arg" in -*|install) ;; *) cp '${root}/packages/'"$arg"/* '${dir}/' ;; esac; done`;
      await writeStub(join(dir, 'apt-get'), 'apt-get', `[ "$1" = install ] || exit 0\n${install}`);
    },
    remove: () => rm(root, { recursive: true, force: true }),
  };
}
