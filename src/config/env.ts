/** Gateway-wide settings from the environment, each with a safe default for local use. */
import { resolve } from 'node:path';
import { ConfigError } from './config-error.js';

export interface GatewaySettings {
  port: number;
  host: string;
  /** `memory`, a `redis://` / `rediss://` URL, or `redis+cluster://host:port,host:port`. */
  store: string;
  logLevel: string;
  configDir: string;
  bodyLimitBytes: number;
  /** How long SIGTERM waits for in-flight requests before exiting anyway. */
  shutdownGraceMs: number;
  /** GATEWAY_SECRET: signs opaque tokens (catalog cursors); the same on every replica. Never logged. */
  gatewaySecret?: string;
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

export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): GatewaySettings {
  const store = env.STORE || 'memory';
  if (!/^(memory|rediss?:\/\/.+|redis\+cluster:\/\/.+)$/.test(store)) {
    throw new ConfigError(`STORE=${JSON.stringify(store)} must be "memory", a redis:// URL or redis+cluster://host:port,...`);
  }
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const gatewaySecret = env.GATEWAY_SECRET || undefined;
  // The message never repeats the value: it is a secret.
  if (gatewaySecret !== undefined && gatewaySecret.length < 32) throw new ConfigError('GATEWAY_SECRET must be at least 32 characters (e.g. openssl rand -base64 32)');
  return {
    port: integer(env, 'PORT', 8080, 0, 65535),
    host: env.HOST || '127.0.0.1',
    store,
    logLevel,
    configDir: resolve(env.CONFIG_DIR || 'config'),
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 1_048_576, 1024, 16 * 1_048_576),
    shutdownGraceMs: integer(env, 'SHUTDOWN_GRACE_MS', 25_000, 0, 600_000),
    ...(gatewaySecret !== undefined && { gatewaySecret }),
  };
}
