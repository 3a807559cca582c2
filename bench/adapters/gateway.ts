/**
 * The gateway in the bench's own process, serving one tenant file, so that StoreProbe sees the
 * store calls each request makes: memory store, request log at `info` to nowhere (as operators
 * run it, without the cost of a terminal).
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { buildServer } from '../../src/server.js';
import { MemoryStore } from '../../src/state/memory-store.js';
import { loadTenants } from '../../src/tenancy/load.js';

export interface InProcessGateway {
  origin: string;
  close(): Promise<void>;
}

/** `tenantYaml(base)` is the tenant file for a gateway at `base`; `env` what its credential references read. */
export async function startGateway(tenantYaml: string, env: Record<string, string>): Promise<InProcessGateway> {
  const configDir = await mkdtemp(join(tmpdir(), 'bench-adapters-'));
  await mkdir(join(configDir, 'tenants'));
  await writeFile(join(configDir, 'tenants', 'tenant.yaml'), tenantYaml);
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
