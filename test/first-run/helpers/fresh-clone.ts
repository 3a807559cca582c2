/**
 * The repository as a newcomer gets it: the tracked folders copied into a temp dir (no dist,
 * nothing generated), node_modules linked from this checkout (the README's `npm install`), and
 * the package's own npm scripts run there as a user runs them.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { vi } from 'vitest';

const exec = promisify(execFile);

/** The test runner's environment without the gateway settings a test did not choose. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['PORT', 'HOST', 'STORE', 'STORE_PREFIX', 'BASE_URL', 'CONFIG_DIR', 'GATEWAY_SECRET', 'LOG_LEVEL']) delete env[name];
  return { ...env, ...extra };
}

export interface FreshClone {
  dir: string;
  /** `npm <args>` in the clone; resolves with its output whatever the exit code. */
  npm(args: string[], env?: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }>;
  readme(): Promise<string>;
  /** Modification time (ms) of every file under dist/, by path. */
  distTimes(): Promise<Map<string, number>>;
  remove(): Promise<void>;
}

export async function freshClone(): Promise<FreshClone> {
  const dir = await mkdtemp(join(tmpdir(), 'proto-clone-'));
  // Exactly what a clone has: the files git tracks, nothing generated or ignored.
  const { stdout } = await exec('git', ['ls-files', '-z'], { maxBuffer: 64 * 1024 * 1024 });
  for (const file of stdout.split('\0').filter(Boolean)) {
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await copyFile(resolve(file), join(dir, file));
  }
  await symlink(resolve('node_modules'), join(dir, 'node_modules'), 'dir');
  return {
    dir,
    async npm(args, env = {}) {
      try {
        const { stdout, stderr } = await exec('npm', args, { cwd: dir, env: cleanEnv(env), maxBuffer: 16 * 1024 * 1024 });
        return { code: 0, stdout, stderr };
      } catch (error) {
        const failed = error as { code?: number; stdout?: string; stderr?: string };
        return { code: typeof failed.code === 'number' ? failed.code : 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
      }
    },
    readme: () => readFile(join(dir, 'README.md'), 'utf8'),
    async distTimes() {
      const times = new Map<string, number>();
      const walk = async (folder: string): Promise<void> => {
        for (const entry of await readdir(folder, { withFileTypes: true })) {
          const path = join(folder, entry.name);
          if (entry.isDirectory()) await walk(path);
          else times.set(path.slice(dir.length + 1), (await stat(path)).mtimeMs);
        }
      };
      await walk(join(dir, 'dist'));
      return times;
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

export interface StartedProcess {
  child: ChildProcess;
  /** Everything written so far, stdout and stderr. */
  output(): string;
  /** What was written to stdout alone. */
  stdout(): string;
  /** Waits (bounded) until the output contains `text`. */
  waitFor(text: string, timeoutMs?: number): Promise<void>;
  /** SIGTERM to the whole process group (npm, its shell, node, background jobs), then waits for the leader's exit. */
  stop(): Promise<void>;
}

/** Starts a long-running command (`npm start`, a file server) in its own process group. */
export function startProcess(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): StartedProcess {
  const child = spawn(command, args, { ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
    stdout += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    output: () => output,
    stdout: () => stdout,
    waitFor: (text, timeoutMs = 120_000) =>
      Promise.race([
        vi.waitFor(
          () => {
            if (!output.includes(text)) throw new Error(`no "${text}" yet:\n${output.slice(-3000)}`);
          },
          { timeout: timeoutMs, interval: 50 },
        ),
        exited.then(() => {
          if (output.includes(text)) return;
          throw new Error(`${command} exited (${child.exitCode}) before printing "${text}":\n${output.slice(-3000)}`);
        }),
      ]),
    async stop() {
      // The whole group, even when its leader is gone: a shell's background jobs (a file server) outlive it.
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // nothing left in the group
      }
      await exited;
    },
  };
}
