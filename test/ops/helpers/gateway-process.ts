/**
 * The gateway as operators run it: compiled once per test run with the build's own tsconfig,
 * started as `node src/main.js` in a child process, its JSON log lines collected.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { inject, vi } from 'vitest';
import { compileGateway } from '../../helpers/build-once.js';
import { freePorts } from '../../helpers/redis-server.js';

/**
 * The gateway compiled once for this test run (the `processes` project's global setup,
 * test/helpers/build-once.ts), or, in a file of another project, compiled for that file.
 */
export async function buildGateway(): Promise<{ dir: string; remove(): Promise<void> }> {
  const shared = inject('gatewayBuild');
  if (shared) return { dir: shared, remove: async () => {} };
  const dir = await compileGateway();
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

export interface GatewayProcess {
  child: ChildProcess;
  origin: string;
  port: number;
  /** Parsed log lines so far. */
  logs: Array<Record<string, unknown>>;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  /** Waits (bounded) for a log line with this message. */
  logged(msg: string, timeoutMs?: number): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

export async function startGateway(buildDir: string, env: Record<string, string>): Promise<GatewayProcess> {
  const [port] = (await freePorts(1)) as [number];
  const child = spawn(process.execPath, [join(buildDir, 'src/main.js')], {
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: String(port), ADMIN_PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Array<Record<string, unknown>> = [];
  let stderr = '';
  let partial = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop()!;
    for (const line of lines) if (line.startsWith('{')) logs.push(JSON.parse(line) as Record<string, unknown>);
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const logged = (msg: string, timeoutMs = 15_000) =>
    vi.waitFor(
      () => {
        const line = logs.find((l) => l.msg === msg);
        if (!line) throw new Error(`no log line "${msg}" yet; stderr: ${stderr.slice(-2000)}`);
        return line;
      },
      { timeout: timeoutMs, interval: 20 },
    );
  const gateway: GatewayProcess = {
    child,
    port,
    origin: `http://127.0.0.1:${port}`,
    logs,
    exited,
    logged,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
  await Promise.race([
    logged(`Server listening at http://127.0.0.1:${port}`),
    exited.then((code) => Promise.reject(new Error(`gateway exited with ${code}: ${stderr}`))),
  ]);
  return gateway;
}
