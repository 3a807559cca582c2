/**
 * The servers a benchmark drives, each started as its own process: the bare baseline, and the
 * gateway compiled by `npm run build` with a tenant file written for the run. Their stdout goes to
 * /dev/null (the gateway still formats its request log at `info`, as operators run it) so that
 * reading logs costs the load generator nothing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseDocument } from 'yaml';
import { freePort } from '../scripts/free-port.js';

export interface ServerProcess {
  name: string;
  origin: string;
  pid: number;
  /** CPU seconds (user + system) the process has used so far. */
  cpuSeconds(): number;
  /** Resident set size in bytes. */
  rssBytes(): number;
  stop(): Promise<void>;
}

const TICKS_PER_SECOND = 100; // Linux USER_HZ
/** A database of its own on the local Redis, emptied before and after a run. */
export const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/9';

function procStat(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' '); // the command name may hold spaces
}

/** A gateway starts in about a second on a quiet machine; a loaded one (load average 10+) needed over 30 s. */
const START_WAIT_SECONDS = 90;

async function waitUntilReady(url: string, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + START_WAIT_SECONDS * 1000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: process exited with ${child.exitCode}: ${stderr()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url}: not ready after ${START_WAIT_SECONDS} s: ${stderr()}`);
}

async function startProcess(name: string, script: string, env: Record<string, string>, readyPath: string): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [...(process.env.BENCH_NODE_OPTIONS?.split(' ').filter(Boolean) ?? []), script], {
    env: { PATH: process.env.PATH, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', openSync('/dev/null', 'w'), 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-4000)));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const origin = `http://127.0.0.1:${port}`;
  await waitUntilReady(origin + readyPath, child, () => stderr);
  const pid = child.pid!;
  return {
    name,
    origin,
    pid,
    cpuSeconds: () => {
      const fields = procStat(pid);
      return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND; // utime, stime
    },
    rssBytes: () => Number(procStat(pid)[21]) * 4096, // rss in pages
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** `spinMicros`: CPU the echo spends per request before answering (bench/slow-server-charge.ts). */
export function startBaseline(spinMicros = 0): Promise<ServerProcess> {
  return startProcess('baseline', resolve('dist/bench/baseline-server.js'), { SPIN_MICROS: String(spinMicros) }, '/bare');
}

export interface GatewayOptions {
  name: string;
  /** `memory` or a Redis URL. */
  store: string;
  signResponses: boolean;
  workDir: string;
  /** The checkout whose build and demo tenant run (bench:compare builds other commits); this one by default. */
  root?: string;
}

/** The demo tenant as shipped, its data read from this checkout, response signing as asked. */
async function writeTenant(configDir: string, signResponses: boolean, root: string): Promise<void> {
  const demo = await readFile(resolve(root, 'config/tenants/demo.yaml'), 'utf8');
  const tenant = demo
    .replace(/data_dir: .*/, `data_dir: ${resolve(root, 'config/demo')}`)
    .replace(/sign_responses: .*/, `sign_responses: ${signResponses}`);
  if (tenant === demo) throw new Error('config/tenants/demo.yaml changed shape: the bench cannot set data_dir and sign_responses');
  await mkdir(join(configDir, 'tenants'), { recursive: true });
  await writeFile(join(configDir, 'tenants', 'demo.yaml'), tenant);
}

export async function startGateway(options: GatewayOptions): Promise<ServerProcess> {
  const configDir = join(options.workDir, options.name);
  const root = options.root ?? '.';
  await writeTenant(configDir, options.signResponses, root);
  return startProcess(
    options.name,
    resolve(root, 'dist/src/main.js'),
    { CONFIG_DIR: configDir, STORE: options.store, LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info' },
    '/readyz',
  );
}

/** The gateway set-up a bench row names (bench/rows.ts): memory or Redis store, response signing on or off. */
export function rowGateway(name: 'memory' | 'redis' | 'signing', workDir: string, redisUrl = REDIS_URL, root?: string): GatewayOptions {
  return {
    name,
    store: name === 'redis' ? redisUrl : 'memory',
    signResponses: name === 'signing',
    workDir,
    ...(root !== undefined && { root }),
  };
}

/**
 * Runs `use` against a gateway started for it alone and stopped after: a measurement then meets
 * the gateway as it runs in production, not a process whose heap holds what earlier rows left
 * (the memory store keeps every session and idempotency record, hundreds of MB after a few rows).
 */
export async function withGateway<T>(options: GatewayOptions, use: (server: ServerProcess) => Promise<T>): Promise<T> {
  const server = await startGateway(options);
  try {
    return await use(server);
  } finally {
    await server.stop();
  }
}

/** Credentials the REST rows' store and gateway share (made up per run). */
export interface RestSecrets {
  apiSecret: string;
  webhookSecret: string;
}

/** The reference store (examples/rest-store) with `latencyMs` added to every API call, its controls on. */
export function startRestStore(latencyMs: number, secrets: RestSecrets): Promise<ServerProcess> {
  return startProcess(
    'rest-store',
    resolve('dist/examples/rest-store/main.js'),
    {
      STORE_KEY_ID: 'flowers-gateway',
      STORE_API_SECRET: secrets.apiSecret,
      STORE_WEBHOOK_SECRET: secrets.webhookSecret,
      STORE_LATENCY_MS: String(latencyMs),
      STORE_CONTROLS: 'true',
      STORE_DATA_DIR: resolve('config/demo'),
    },
    '/health',
  );
}

/** The flowers tenant (config/rest-demo) in front of `storeOrigin`, response signing off like the memory rows. */
export async function startRestGateway(workDir: string, storeOrigin: string, secrets: RestSecrets): Promise<ServerProcess> {
  const configDir = join(workDir, 'rest');
  const doc = parseDocument(await readFile(resolve('config/rest-demo/tenants/flowers.yaml'), 'utf8'));
  doc.setIn(['adapter', 'settings', 'base_url'], `${storeOrigin}/api/v2`);
  doc.setIn(['adapter', 'settings', 'storefront_url'], storeOrigin);
  doc.setIn(['signing', 'sign_responses'], false);
  await mkdir(join(configDir, 'tenants'), { recursive: true });
  await writeFile(join(configDir, 'tenants', 'flowers.yaml'), doc.toString());
  return startProcess(
    'rest',
    resolve('dist/src/main.js'),
    {
      CONFIG_DIR: configDir,
      STORE: 'memory',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
      FLOWERS_STORE_API_SECRET: secrets.apiSecret,
      FLOWERS_STORE_WEBHOOK_SECRET: secrets.webhookSecret,
    },
    '/readyz',
  );
}
