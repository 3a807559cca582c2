/**
 * The state store on Redis (standalone or Cluster), shared by every gateway replica.
 * A record is one hash (`v` version, `d` JSON value or text) under `<keyPrefix>k:<key>`; every write is
 * one Lua script, so version checks and TTLs are atomic. Any failure to reach Redis is a
 * StoreUnavailableError, quickly (see redis-connection.ts).
 */
import { firstContact, openRedisClient, storeError, type RedisClient, type RedisConnectionOptions } from './redis-connection.js';
import { RedisQueue } from './redis-queue.js';
import type { ScriptName } from './redis-scripts.js';
import { StoreUnavailableError, type DurableQueue, type SharedConnection, type StateStore, type Versioned } from './store.js';
import { checkText, checkVersion, decodeJson, durationMillis, encodeJson } from './values.js';

export interface RedisStoreOptions extends RedisConnectionOptions {
  /** Prepended to every key, so several deployments (or test runs) can share one Redis. */
  keyPrefix?: string;
  /** Clock for queue times (availableAt, leases, diedAt); key TTLs run on Redis's own clock. */
  now?: () => number;
}

type ScriptMethods = Record<ScriptName, (...args: Array<string | number>) => Promise<unknown>>;

export class RedisStore implements StateStore {
  private closed = false;

  private constructor(
    private readonly client: RedisClient,
    private readonly prefix: string,
    private readonly now: () => number,
  ) {}

  /** Resolves even when Redis is unreachable: every call then fails with StoreUnavailableError until it answers. */
  static async connect(url: string, options: RedisStoreOptions = {}): Promise<RedisStore> {
    const client = openRedisClient(url, options);
    await firstContact(client);
    return new RedisStore(client, options.keyPrefix ?? '', options.now ?? Date.now);
  }

  /** The client and this store's key prefix, for parts that keep their own keys in the same Redis (the shared rate limiter). */
  get connection(): SharedConnection {
    return { client: this.client, keyPrefix: this.prefix };
  }

  async get<T>(key: string): Promise<Versioned<T> | null> {
    const stored = await this.getText(key);
    return stored && { value: decodeJson<T>(stored.value), version: stored.version };
  }

  async getText(key: string): Promise<Versioned<string> | null> {
    const [version, data] = await this.run(() => this.client.hmget(this.record(key), 'v', 'd'));
    return data == null ? null : { value: data, version: Number(version) };
  }

  async set<T>(key: string, value: T, ttlMs: number): Promise<number> {
    return this.setText(key, encodeJson(value), ttlMs);
  }

  async setText(key: string, text: string, ttlMs: number): Promise<number> {
    return (await this.script('stateSet', [this.record(key)], [checkText(text), durationMillis(ttlMs)])) as number;
  }

  async setIfAbsent<T>(key: string, value: T, ttlMs: number): Promise<boolean> {
    return (await this.script('stateSetIfAbsent', [this.record(key)], [encodeJson(value), durationMillis(ttlMs)])) === 1;
  }

  async compareAndSet<T>(key: string, expectedVersion: number, value: T, ttlMs: number): Promise<number | null> {
    checkVersion(expectedVersion);
    const version = (await this.script(
      'stateCompareAndSet',
      [this.record(key)],
      [expectedVersion, encodeJson(value), durationMillis(ttlMs)],
    )) as number;
    return version === 0 ? null : version;
  }

  async delete(key: string): Promise<void> {
    await this.run(() => this.client.del(this.record(key)));
  }

  queue<T>(name: string): DurableQueue<T> {
    return new RedisQueue<T>((script, keys, args) => this.script(script, keys, args), `${this.prefix}{q:${name}}:`, this.now);
  }

  async ping(): Promise<void> {
    await this.run(() => this.client.ping());
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // QUIT lets in-flight commands finish; with Redis unreachable there is nothing to finish.
    if (this.client.status === 'ready') await this.client.quit().catch(() => this.client.disconnect());
    else this.client.disconnect();
  }

  private record(key: string): string {
    return `${this.prefix}k:${key}`;
  }

  private script(name: ScriptName, keys: string[], args: Array<string | number>): Promise<unknown> {
    return this.run(() => (this.client as unknown as ScriptMethods)[name](...keys, ...args));
  }

  private async run<R>(command: () => Promise<R>): Promise<R> {
    if (this.closed) throw new StoreUnavailableError('the Redis store is closed');
    try {
      return await command();
    } catch (error) {
      throw storeError(error);
    }
  }
}
