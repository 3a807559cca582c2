/** Gateway-wide settings from the environment, each with a safe default for local use. */
import { operatorTokens, type OperatorToken } from './operator-tokens.js';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { ConfigError } from '../../adapters/kit/config-error.js';
import { BASE_URL_PATTERN } from './tenant-schema.js';

/** Serve HTTPS (TLS 1.3 minimum); with `caFile`, ask clients for certificates signed by it (mutual TLS). */
export interface TlsSettings {
  certFile: string;
  keyFile: string;
  caFile?: string;
  /** `request`: a client certificate is optional and checked later; `require`: the handshake fails without a valid one. */
  clientCert?: 'request' | 'require';
}

/** Fastify `trustProxy`: false, true (trust every hop), or the proxies' addresses / CIDRs. */
export type TrustProxy = boolean | string[];

export interface GatewaySettings {
  port: number;
  host: string;
  /** ADMIN_PORT / ADMIN_HOST: the operator listener (metrics), apart from the tenants' port. */
  adminPort: number;
  /** Who may act in the operator console (OPERATOR_TOKEN, OPERATOR_TOKEN_FILE); none: it only shows. */
  operators: OperatorToken[];
  adminHost: string;
  /** `memory`, a `redis://` / `rediss://` URL, or `redis+cluster://host:port,host:port`. */
  store: string;
  /** STORE_PREFIX plus `:` (or empty): starts every Redis key, so deployments sharing one Redis never meet. */
  storePrefix: string;
  logLevel: string;
  configDir: string;
  bodyLimitBytes: number;
  /** How long SIGTERM waits for in-flight requests before exiting anyway. */
  shutdownGraceMs: number;
  /** GATEWAY_SECRET: signs opaque tokens (catalog cursors); the same on every replica. Never logged. */
  gatewaySecret?: string;
  tls?: TlsSettings;
  trustProxy: TrustProxy;
  /** Reload tenant files when they change (SIGHUP always reloads). */
  configWatch: boolean;
  /** BASE_URL: base_url of tenant files that name none, instead of the address the gateway listens on. */
  baseUrl?: string;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name}=${JSON.stringify(raw)} must be an integer between ${min} and ${max}`);
  }
  return value;
}

/** Names proxy-addr understands besides addresses and CIDRs. */
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function trustProxy(env: NodeJS.ProcessEnv): TrustProxy {
  const raw = env.TRUST_PROXY;
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) {
    // Fastify 5 trusts nothing for a hop count: it cannot tell a proxy from a client that forges hops.
    throw new ConfigError(
      "TRUST_PROXY: hop counts are not supported; list the proxies' addresses or CIDRs (e.g. 10.0.0.0/8), " +
        'or true behind a proxy that every request must pass',
    );
  }
  const entries = raw.split(',').map((e) => e.trim());
  for (const entry of entries) {
    const [address = '', bits, ...rest] = entry.split('/');
    const family = isIP(address);
    const bitsOk = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32));
    if (!PROXY_NAMES.has(entry) && (family === 0 || !bitsOk || rest.length > 0)) {
      throw new ConfigError(
        `TRUST_PROXY: ${JSON.stringify(entry)} is not an address, a CIDR or one of ${[...PROXY_NAMES].join(', ')}; ` +
          'use true or a comma-separated list',
      );
    }
  }
  return entries;
}

function tls(env: NodeJS.ProcessEnv): TlsSettings | undefined {
  const { TLS_CERT_FILE: certFile, TLS_KEY_FILE: keyFile, TLS_CA_FILE: caFile, TLS_CLIENT_CERT: clientCert } = env;
  if (!certFile !== !keyFile) throw new ConfigError('TLS_CERT_FILE and TLS_KEY_FILE go together: set both to serve HTTPS, or neither');
  if (clientCert && clientCert !== 'request' && clientCert !== 'require') {
    throw new ConfigError('TLS_CLIENT_CERT must be "request" or "require"');
  }
  if (!certFile || !keyFile) {
    if (caFile || clientCert) throw new ConfigError('TLS_CA_FILE and TLS_CLIENT_CERT need TLS_CERT_FILE and TLS_KEY_FILE');
    return undefined;
  }
  if (clientCert && !caFile) throw new ConfigError('TLS_CLIENT_CERT needs TLS_CA_FILE: the CA that signs client certificates');
  return {
    certFile: resolve(certFile),
    keyFile: resolve(keyFile),
    ...(caFile && { caFile: resolve(caFile) }),
    ...(caFile && { clientCert: (clientCert as TlsSettings['clientCert']) ?? 'request' }),
  };
}

export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): GatewaySettings {
  const store = env.STORE || 'memory';
  if (!/^(memory|rediss?:\/\/.+|redis\+cluster:\/\/.+)$/.test(store)) {
    // Not echoed: a mistyped URL may still carry the Redis password.
    throw new ConfigError('STORE must be "memory", a redis:// or rediss:// URL, or redis+cluster://host:port,...');
  }
  const storePrefix = env.STORE_PREFIX || '';
  // Braces would become a Cluster hash tag of their own and split each queue's keys across slots.
  if (!/^[A-Za-z0-9._-]{0,64}$/.test(storePrefix)) {
    throw new ConfigError('STORE_PREFIX must be at most 64 letters, digits, ".", "_" or "-"');
  }
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const gatewaySecret = env.GATEWAY_SECRET || undefined;
  // The message never repeats the value: it is a secret.
  if (gatewaySecret !== undefined && gatewaySecret.length < 32) {
    throw new ConfigError('GATEWAY_SECRET must be at least 32 characters (e.g. openssl rand -base64 32)');
  }
  if (env.CONFIG_WATCH && env.CONFIG_WATCH !== 'true' && env.CONFIG_WATCH !== 'false') {
    throw new ConfigError('CONFIG_WATCH must be "true" or "false"');
  }
  const tlsSettings = tls(env);
  const baseUrl = env.BASE_URL || undefined;
  if (baseUrl !== undefined && !new RegExp(BASE_URL_PATTERN).test(baseUrl)) {
    throw new ConfigError('BASE_URL must be an http(s) URL without a trailing slash, query or fragment, e.g. https://agents.example.com');
  }
  return {
    operators: operatorTokens(env),
    port: integer(env, 'PORT', 8080, 0, 65535),
    host: env.HOST || '127.0.0.1',
    adminPort: integer(env, 'ADMIN_PORT', 9464, 0, 65535),
    adminHost: env.ADMIN_HOST || '127.0.0.1',
    store,
    storePrefix: storePrefix && `${storePrefix}:`,
    logLevel,
    configDir: resolve(env.CONFIG_DIR || 'config'),
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 1_048_576, 1024, 16 * 1_048_576),
    shutdownGraceMs: integer(env, 'SHUTDOWN_GRACE_MS', 25_000, 0, 600_000),
    ...(gatewaySecret !== undefined && { gatewaySecret }),
    ...(tlsSettings && { tls: tlsSettings }),
    trustProxy: trustProxy(env),
    configWatch: env.CONFIG_WATCH === 'true',
    ...(baseUrl !== undefined && { baseUrl }),
  };
}
