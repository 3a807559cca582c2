/**
 * The gateway serving one tenant file (memory store, request log at `info` to nowhere, as
 * operators run it without the cost of a terminal), with the store calls of each request: in this
 * process for the call-count tests (StoreProbe here), or as its own process built by `npm run
 * build` for the bench (StoreProbe loaded into it, the calls sent back over IPC), so the stores
 * and the load generator in the bench process take none of its CPU.
 */
import { spawn } from 'node:child_process';
import { openSync } from 'node:fs';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Writable } from 'node:stream';
import { buildServer } from '../../src/server.js';
import { MemoryStore } from '../../src/state/memory-store.js';
import { loadTenants } from '../../src/tenancy/load.js';
import { freePort } from '../../scripts/free-port.js';
import type { StoreCall, StoreProbe } from './store-probe.js';

/** Extra Node flags for the gateway's process (BENCH_GATEWAY_FLAGS, e.g. `--cpu-prof --cpu-prof-dir=prof`). */
const GATEWAY_FLAGS = (process.env.BENCH_GATEWAY_FLAGS ?? '').split(' ').filter(Boolean);
/**
 * The checkout whose built gateway is measured (BENCH_GATEWAY_ROOT, default this one): another
 * commit's worktree, built, is measured by this harness and scenario, even a commit older than them.
 */
const GATEWAY_MAIN = resolve(process.env.BENCH_GATEWAY_ROOT ?? '.', 'dist/src/main.js');

interface InProcessGateway {
  origin: string;
  close(): Promise<void>;
}

/** What the gateway's process saw of one request (the times on its clock; absent in-process). */
interface Seen {
  calls: StoreCall[];
  /** When the request arrived (headers parsed) and when its answer was written. */
  arrived?: number;
  finished?: number;
  /** The process's CPU time in between, every thread's (all this request's when requests come one at a time). */
  cpuMs?: number;
}

export interface BenchGateway extends InProcessGateway {
  /** What the gateway saw of the request with this Request-Id, once its answer is written. */
  seen(requestId: string): Promise<Seen>;
}

async function tenantDir(tenantYaml: string): Promise<string> {
  const configDir = await mkdtemp(join(tmpdir(), 'bench-adapters-'));
  await mkdir(join(configDir, 'tenants'));
  await writeFile(join(configDir, 'tenants', 'tenant.yaml'), tenantYaml);
  return configDir;
}

/** The gateway in this process, its requests' store calls from `probe`. */
export async function inProcess(tenantYaml: string, env: Record<string, string>, probe: StoreProbe): Promise<BenchGateway> {
  const gateway = await startGateway(tenantYaml, env);
  return { ...gateway, seen: async (id) => ({ calls: probe.take(id) }) };
}

/** The built gateway (dist/src/main.js of BENCH_GATEWAY_ROOT) as its own process, StoreProbe loaded into it. */
export async function ownProcess(tenantYaml: string, env: Record<string, string>): Promise<BenchGateway> {
  const configDir = await tenantDir(tenantYaml);
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [...GATEWAY_FLAGS, '--import', pathToFileURL(resolve('dist/bench/adapters/probe-child.js')).href, GATEWAY_MAIN],
    {
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: String(port),
        CONFIG_DIR: configDir,
        STORE: 'memory',
        LOG_LEVEL: 'info',
        ...env,
      },
      stdio: ['ignore', openSync('/dev/null', 'w'), 'inherit', 'ipc'],
    },
  );
  const arrived = new Map<string, Seen>();
  const waiting = new Map<string, (seen: Seen) => void>();
  child.on('message', ({ id, ...seen }: Seen & { id: string }) => {
    const wake = waiting.get(id);
    if (wake) {
      waiting.delete(id);
      wake(seen);
    } else arrived.set(id, seen);
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const origin = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`the gateway exited with ${child.exitCode} (its errors are above)`);
    if (i === 300) throw new Error('the gateway was not ready after 30 s');
    if (
      await fetch(`${origin}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    origin,
    seen(id) {
      const seen = arrived.get(id);
      arrived.delete(id);
      return seen ? Promise.resolve(seen) : new Promise((done) => waiting.set(id, done));
    },
    async close() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      await rm(configDir, { recursive: true, force: true });
    },
  };
}

/** `tenantYaml(base)` is the tenant file for a gateway at `base`; `env` what its credential references read. */
async function startGateway(tenantYaml: string, env: Record<string, string>): Promise<InProcessGateway> {
  const configDir = await tenantDir(tenantYaml);
  const store = new MemoryStore();
  const tenants = await loadTenants(configDir, { env: { ...process.env, ...env }, now: Date.now, store });
  const app = await buildServer({
    settings: { bodyLimitBytes: 1_048_576, logLevel: 'info' },
    tenants,
    store,
    logStream: new Writable({ write: (_c, _e, done) => done() }),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    origin: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    async close() {
      await app.close();
      await rm(configDir, { recursive: true, force: true });
    },
  };
}
