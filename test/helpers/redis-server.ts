/**
 * Throwaway redis-server processes on free loopback ports (a standalone server, or a
 * three-node Cluster), each in its own temp dir, for tests that stop and start Redis.
 */
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Why redis-server / redis-cli cannot be used here, or undefined when they can. */
export function redisBinariesProblem(): string | undefined {
  for (const binary of ['redis-server', 'redis-cli']) {
    const probe = spawnSync(binary, ['--version'], { encoding: 'utf8' });
    if (probe.error || probe.status !== 0) return `${binary} is not installed (apt-get install redis-server)`;
  }
  return undefined;
}

export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
          const server = createServer();
          server.once('error', reject).listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((s) => (s.address() as { port: number }).port);
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
}

const children = new Set<ChildProcess>();
// A crashed test run must not leave servers behind.
process.once('exit', () => children.forEach((child) => child.kill('SIGKILL')));

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await sleep(50);
  }
}

const cli = async (port: number, ...args: string[]) => (await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args])).stdout;

export interface RedisServer {
  port: number;
  url: string;
  /** Of the running process. */
  readonly pid: number;
  /** Stops the process (the data is gone: nothing is saved, unless `extra` turned persistence on). */
  stop(): Promise<void>;
  /** Kills the process with SIGKILL: no shutdown, no last save. */
  kill(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  /** Stops it for good and removes its dir. */
  remove(): Promise<void>;
}

async function launch(port: number, dir: string, extra: string[]): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--daemonize', 'no', ...extra],
    { stdio: 'ignore' },
  );
  children.add(child);
  child.once('exit', () => children.delete(child));
  await until(`redis-server on port ${port}`, async () => (await cli(port, 'ping')).trim() === 'PONG');
  return child;
}

async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** `extra` arguments override the defaults (e.g. `--appendonly yes --appendfsync always` to keep every write across a kill). */
export async function startRedisServer(extra: string[] = []): Promise<RedisServer> {
  const dir = await mkdtemp(join(tmpdir(), 'proto-redis-'));
  const [port] = await freePorts(1);
  let child = await launch(port!, dir, extra);
  return {
    port: port!,
    url: `redis://127.0.0.1:${port}`,
    get pid() {
      return child.pid!;
    },
    stop: () => terminate(child),
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
    async start() {
      child = await launch(port!, dir, extra);
    },
    async remove() {
      await terminate(child);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface RedisCluster {
  /** `redis+cluster://` URL of all nodes. */
  url: string;
  ports: number[];
  remove(): Promise<void>;
}

/** Three masters, no replicas; resolves once every node reports cluster_state:ok. */
export async function startRedisCluster(): Promise<RedisCluster> {
  const dir = await mkdtemp(join(tmpdir(), 'proto-redis-cluster-'));
  // Bus ports chosen explicitly: the default port + 10000 may be taken or past 65535.
  const ports = await freePorts(6);
  const nodes = ports.slice(0, 3);
  const started: ChildProcess[] = [];
  const remove = async () => {
    await Promise.all(started.map(terminate));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    for (const [i, port] of nodes.entries()) {
      const args = [
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        join(dir, `nodes-${port}.conf`),
        '--cluster-port',
        String(ports[3 + i]),
      ];
      started.push(await launch(port, dir, args));
    }
    await run('redis-cli', ['--cluster', 'create', ...nodes.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes']);
    for (const port of nodes) {
      await until(`cluster_state:ok on ${port}`, async () => (await cli(port, 'cluster', 'info')).includes('cluster_state:ok'));
    }
  } catch (error) {
    await remove();
    throw error;
  }
  return { url: `redis+cluster://${nodes.map((p) => `127.0.0.1:${p}`).join(',')}`, ports: nodes, remove };
}
