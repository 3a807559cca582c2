/**
 * An in-process gateway for the security tests: a tenant with signing keys, a platform whose
 * profile publishes its own keys, and helpers that send REST or MCP requests signed the way a
 * platform would. Built like test/helpers/gateway.ts, plus the tenant's keyring.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { TenantConfig } from '../../../src/config/tenant-schema.js';
import type { OperationDefinition } from '../../../src/capabilities/operation.js';
import { Keyring, generatePrivateJwk, signingKeyFromJwk, type SigningKey } from '../../../src/security/keyring.js';
import { signRequest, type SignRequestOptions } from '../../../src/security/sign.js';
import { buildServer } from '../../../src/server.js';
import { MemoryStore } from '../../../src/state/memory-store.js';
import type { StateStore } from '../../../src/state/store.js';
import { TenantRegistry } from '../../../src/tenancy/registry.js';
import { assembleTenant } from '../../../src/tenancy/tenant.js';
import { counterOperations } from '../../helpers/counter-operation.js';
import { platformProfile, startPlatform, type PlatformServer } from '../../helpers/platform.js';
import { stubAdapter } from '../../helpers/stub-adapter.js';
import { orderProbe, whoAmI } from './probe-operations.js';

export const HOST = 'shop.example';

export const securityTenantConfig: TenantConfig = {
  id: 'shop',
  name: 'Test Shop',
  base_url: `https://${HOST}`,
  adapter: { type: 'memory', settings: {} },
  capabilities: { 'dev.proto.shopping.cart': {}, 'dev.proto.shopping.order': {} },
  policies: { allow_loopback_profiles: true },
};

export async function newSigningKey(alg: 'ES256' | 'ES384' | 'EdDSA' = 'ES256'): Promise<SigningKey> {
  return signingKeyFromJwk(await generatePrivateJwk(alg), 'test key');
}

export interface SecureGatewayOptions {
  /** Tenant overrides; a function gets the platform, for config naming its profile URL. */
  tenant?: Partial<TenantConfig> | ((platform: PlatformServer) => Partial<TenantConfig>);
  keyring?: Keyring;
  operations?: readonly OperationDefinition[];
  now?: () => number;
  /** The state store (a Redis one for replicas); a memory store of its own by default. */
  store?: StateStore;
  /** Another replica of `replicaOf`'s deployment: the same platform and platform key, not closed by close(). */
  replicaOf?: SecureGateway;
}

interface SignedCall {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  /** Extra headers (undefined drops a default one). */
  headers?: Record<string, string | undefined>;
  /** Signing options; omit `sign` to send the request unsigned. */
  sign?: Partial<SignRequestOptions> | false;
  /** Profile path the PROTO-Agent header points at. */
  profile?: string;
}

export interface Outgoing {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

export interface SecureGateway {
  app: FastifyInstance;
  platform: PlatformServer;
  /** The platform's signing key, published in its default profile. */
  platformKey: SigningKey;
  now: () => number;
  /** Every log line the gateway wrote. */
  logs: string[];
  headers(profile?: string, overrides?: Record<string, string | undefined>): Record<string, string>;
  /** A REST request as a platform sends it, signed with the platform key unless `sign` is false. */
  request(call: SignedCall): Outgoing;
  send(request: Outgoing): Promise<LightMyRequestResponse>;
  /** request + send. */
  call(call: SignedCall): Promise<LightMyRequestResponse>;
  /** Publishes a profile carrying `keys` at `path`. */
  publish(path: string, keys: unknown[]): void;
  close(): Promise<void>;
}

const text = (body: unknown) => (body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body));

export async function secureGateway(options: SecureGatewayOptions = {}): Promise<SecureGateway> {
  const platformKey = options.replicaOf?.platformKey ?? (await newSigningKey());
  const platform = options.replicaOf?.platform ?? (await startPlatform(platformProfile(undefined, {})));
  const publish = (path: string, keys: unknown[]) => platform.serve(path, { ...platformProfile(), keys });
  if (!options.replicaOf) publish('/.well-known/proto', [platformKey.publicJwk]);
  const now = options.now ?? Date.now;
  const logs: string[] = [];
  const config = { ...securityTenantConfig, ...(typeof options.tenant === 'function' ? options.tenant(platform) : options.tenant) };
  const store = options.store ?? new MemoryStore();
  const tenant = assembleTenant({ config, file: 'test/tenant.yaml' }, stubAdapter(), {
    ...(options.keyring && { keyring: options.keyring }),
    store,
  });
  const app = await buildServer({
    settings: { bodyLimitBytes: 65_536, logLevel: 'info' },
    logStream: { write: (line: string) => void logs.push(line) },
    tenants: new TenantRegistry([tenant]),
    store,
    operations: options.operations ?? [...counterOperations, whoAmI, orderProbe],
    now,
  });
  await app.ready();

  const headers = (profile = '/.well-known/proto', overrides: Record<string, string | undefined> = {}) => {
    const all: Record<string, string | undefined> = {
      host: HOST,
      'content-type': 'application/json',
      'proto-agent': platform.agent(profile),
      'request-id': randomUUID(),
      'idempotency-key': randomUUID(),
      ...overrides,
    };
    return Object.fromEntries(Object.entries(all).filter((e): e is [string, string] => e[1] !== undefined));
  };

  const request = ({ method, path, body, headers: extra, sign, profile }: SignedCall): Outgoing => {
    const payload = text(body);
    let sent = headers(profile, { ...(method === 'GET' && { 'content-type': undefined, 'idempotency-key': undefined }), ...extra });
    if (sign !== false) {
      sent = signRequest(
        { method, url: `https://${HOST}${path}`, headers: sent, ...(payload !== undefined && { body: payload }) },
        { key: platformKey, now, ...sign },
      );
    }
    return { method, url: path, headers: sent, ...(payload !== undefined && { payload }) };
  };
  const send = (outgoing: Outgoing) => app.inject(outgoing);

  return {
    app,
    platform,
    platformKey,
    now,
    logs,
    headers,
    publish,
    request,
    send,
    call: (call) => send(request(call)),
    async close() {
      await app.close();
      if (!options.replicaOf) await platform.close();
    },
  };
}
