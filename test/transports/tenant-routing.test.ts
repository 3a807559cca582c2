/**
 * Which tenant a request reaches, over a real socket: a tenant served under a path prefix never
 * answers on another merchant's own domain, and an absolute-form request target routes by its
 * own authority, not the Host header (RFC 9112 §3.2.2).
 */
import { connect, type AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TenantConfig } from '../../src/config/tenant-schema.js';
import { buildServer } from '../../src/server.js';
import { MemoryStore } from '../../src/state/memory-store.js';
import { TenantRegistry } from '../../src/tenancy/registry.js';
import { assembleTenant } from '../../src/tenancy/tenant.js';
import { baseTenantConfig } from '../helpers/gateway.js';
import { stubAdapter } from '../helpers/stub-adapter.js';

const tenant = (config: Partial<TenantConfig>) =>
  assembleTenant({ config: { ...baseTenantConfig, ...config }, file: `test/${config.id}.yaml` }, stubAdapter());

let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  app = await buildServer({
    settings: { bodyLimitBytes: 65_536, logLevel: 'silent' },
    tenants: new TenantRegistry([
      tenant({ id: 'shop-a', base_url: 'https://shop-a.example', hosts: ['shop-a.example'] }),
      tenant({ id: 'shop-b', base_url: 'https://shop-b.example', hosts: ['shop-b.example'] }),
      // An agency's shared domain: one tenant on it by prefix, and one by prefix on any host no tenant lists.
      tenant({ id: 'listed', base_url: 'https://agency.example/t/listed', hosts: ['agency.example'], path_prefix: '/t/listed' }),
      tenant({ id: 'anywhere', base_url: 'https://gw.example/t/anywhere', path_prefix: '/t/anywhere' }),
    ]),
    store: new MemoryStore(),
    jobPollMs: 3_600_000,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as AddressInfo).port;
});
afterAll(async () => app?.close());

/** One request written byte for byte, so the request target and Host are exactly what a client sent. */
function rawGet(target: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(`GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`));
    let answer = '';
    socket
      .on('data', (chunk) => (answer += chunk.toString('utf8')))
      .on('end', () => resolve({ status: Number(answer.slice(9, 12)), body: answer.slice(answer.indexOf('\r\n\r\n') + 4) }))
      .on('error', reject);
  });
}

/** The base URL of the tenant whose profile answered, or the status when none did. */
async function profileAt(target: string, host: string): Promise<string | number> {
  const { status, body } = await rawGet(target, host);
  if (status !== 200) return status;
  const endpoint = (JSON.parse(body) as { proto: { services: Record<string, Array<{ endpoint?: string }>> } }).proto.services;
  return Object.values(endpoint)
    .flat()
    .map((s) => s.endpoint)
    .find((e) => e !== undefined)!;
}

describe('a tenant under a path prefix', () => {
  it('with hosts: answers on its hosts only, never on another merchant’s domain or an unlisted host', async () => {
    expect(await profileAt('/t/listed/.well-known/proto', 'agency.example')).toMatch(/^https:\/\/agency\.example\/t\/listed/);
    expect(await profileAt('/t/listed/.well-known/proto', 'shop-a.example')).toBe(404);
    expect(await profileAt('/t/listed/.well-known/proto', 'gw.example')).toBe(404);
  });

  it('without hosts: answers on hosts no tenant lists, never on a host another tenant lists', async () => {
    expect(await profileAt('/t/anywhere/.well-known/proto', 'gw.example')).toMatch(/^https:\/\/gw\.example\/t\/anywhere/);
    expect(await profileAt('/t/anywhere/.well-known/proto', 'shop-a.example')).toBe(404);
    expect(await profileAt('/t/anywhere/.well-known/proto', 'agency.example')).toBe(404);
  });
});

describe('an absolute-form request target', () => {
  it('routes by the target’s authority, whatever the Host header says', async () => {
    expect(await profileAt('http://shop-b.example/.well-known/proto', 'shop-a.example')).toMatch(/^https:\/\/shop-b\.example/);
    expect(await profileAt('http://shop-a.example/.well-known/proto', 'shop-b.example')).toMatch(/^https:\/\/shop-a\.example/);
  });

  it('with a prefix: the target’s authority decides which prefixed tenants answer', async () => {
    expect(await profileAt('http://agency.example/t/listed/.well-known/proto', 'shop-a.example')).toMatch(/agency\.example\/t\/listed/);
    expect(await profileAt('http://shop-a.example/t/listed/.well-known/proto', 'agency.example')).toBe(404);
  });

  it('naming a host no tenant serves: 404, not the Host header’s tenant', async () => {
    expect(await profileAt('http://nobody.example/.well-known/proto', 'shop-a.example')).toBe(404);
  });
});
