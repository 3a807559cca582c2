/**
 * Opens the ioredis client behind the Redis store, standalone or Cluster, tuned to fail fast and
 * closed: no offline queue (a command while disconnected rejects at once), a timeout on every
 * command, no silent resend of a command that may already have run, and a reconnect backoff
 * capped at 2 s that never gives up, so the store recovers by itself when Redis comes back.
 */
import { Cluster, Redis, ReplyError, type RedisOptions } from 'ioredis';
import { ConfigError } from '../../adapters/kit/config-error.js';
import { SCRIPTS } from './redis-scripts.js';
import { StoreUnavailableError } from './store.js';

export interface RedisConnectionOptions {
  /** How long one command may take before it fails with StoreUnavailableError. Default 1000. */
  commandTimeoutMs?: number;
  /** Cluster start-up nodes instead of those in a `redis+cluster://` URL; the URL still supplies credentials. */
  clusterNodes?: Array<{ host: string; port: number }>;
}

export type RedisClient = Redis | Cluster;

const CLUSTER_SCHEME = 'redis+cluster://';
const CONNECT_TIMEOUT_MS = 3000;
const backoff = (attempt: number) => Math.min(50 * 2 ** attempt, 2000);

export function openRedisClient(url: string, options: RedisConnectionOptions = {}): RedisClient {
  const common: RedisOptions = {
    commandTimeout: options.commandTimeoutMs ?? 1000,
    connectTimeout: CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
  };
  const client = connectClient(url, options, common);
  // Every connection error also fails the command that meets it, which callers see; without
  // a listener ioredis would print each reconnect failure.
  client.on('error', () => undefined);
  return client;
}

function connectClient(url: string, options: RedisConnectionOptions, common: RedisOptions): RedisClient {
  if (url.startsWith(CLUSTER_SCHEME) || options.clusterNodes) {
    const { nodes, username, password } = parseClusterUrl(url, options.clusterNodes);
    if (nodes.length === 0) throw new ConfigError('a Redis Cluster store needs at least one node: redis+cluster://host:port,host:port');
    return new Cluster(nodes, {
      enableOfflineQueue: false,
      clusterRetryStrategy: backoff,
      // Node connections come back on their own after a restart without a slot change.
      clusterNodeRetryStrategy: backoff,
      scripts: SCRIPTS,
      redisOptions: { ...common, ...(username && { username }), ...(password && { password }) },
    });
  }
  if (!/^rediss?:\/\/[^/]/.test(url)) {
    throw new ConfigError('a Redis store URL must be redis://host:port, rediss://host:port or redis+cluster://host:port,host:port');
  }
  return new Redis(url, { ...common, enableOfflineQueue: false, retryStrategy: backoff, scripts: SCRIPTS });
}

/** `redis+cluster://[user:password@]host:port,host:port[/]`; with `clusterNodes` given, any Redis URL for its credentials. */
function parseClusterUrl(url: string, givenNodes?: Array<{ host: string; port: number }>) {
  const [, userinfo = '', hosts = ''] = /^[a-z+]+:\/\/(?:([^@/]*)@)?([^/]*)/.exec(url) ?? [];
  const colon = userinfo.indexOf(':');
  const username = decodeURIComponent(colon < 0 ? userinfo : userinfo.slice(0, colon));
  const password = colon < 0 ? '' : decodeURIComponent(userinfo.slice(colon + 1));
  const nodes =
    givenNodes ??
    hosts
      .split(',')
      .filter(Boolean)
      .map((node) => {
        const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(node.trim());
        if (!match) throw new ConfigError(`Redis Cluster node ${JSON.stringify(node)} must be host:port`);
        return { host: match[1]!.replace(/^\[|\]$/g, ''), port: Number(match[2]) };
      });
  return { nodes, ...(username && { username }), ...(password && { password }) };
}

/**
 * Waits for the first connection to succeed or fail, never longer than the connect timeout, so
 * the first request does not race the handshake. An unreachable Redis does not stop start-up:
 * requests fail closed with 503 until it answers.
 */
export async function firstContact(client: RedisClient): Promise<void> {
  if (client.status === 'ready') return;
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      client.off('ready', done).off('error', done);
      resolve();
    };
    const timer = setTimeout(done, CONNECT_TIMEOUT_MS);
    client.once('ready', done).once('error', done);
  });
}

/** Redis answers that mean "cannot serve you now" (loading, failing over, full, refusing our credentials), not "your command is wrong". */
const UNAVAILABLE_REPLIES = /^(LOADING|BUSY|CLUSTERDOWN|TRYAGAIN|MASTERDOWN|READONLY|NOREPLICAS|OOM|NOAUTH|WRONGPASS|NOPERM)\b/;

/** Unreachable, timed out or refusing service: StoreUnavailableError. Any other reply error is a bug and stays as it is. */
export function storeError(error: unknown): unknown {
  if (error instanceof ReplyError && !UNAVAILABLE_REPLIES.test((error as Error).message)) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new StoreUnavailableError(`Redis did not answer: ${reason}`, { cause: error });
}
