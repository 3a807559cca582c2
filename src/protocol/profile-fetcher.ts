/**
 * Fetches and caches platform profiles for negotiation. Each failure maps to the discovery
 * error the spec names: a bad URL or a host name that does not resolve 400 `invalid_profile_url`,
 * unreachable 424 `profile_unreachable`, not JSON or not a profile 422 `profile_malformed`. Concurrent requests for
 * one URL share a single fetch; entries live as long as the profile's Cache-Control allows,
 * clamped to [minTtl, maxTtl]. A profile URL carries no query or fragment (the spec's well-known
 * path), so one profile has one URL; and fetches on a cache miss are capped per caller address
 * and per profile origin (429 past either): naming new URLs cannot make the gateway fetch at will.
 */
import { LRUCache } from 'lru-cache';
import secureJson from 'secure-json-parse';
import { PlatformProfile } from '../../schemas/profile.js';
import { isLoopback } from '../net/address-guard.js';
import { FetchRefused, safeFetch, type FetchLimits } from '../net/safe-fetch.js';
import { compile } from '../../schemas/validator.js';
import { ProtocolError } from './errors.js';

export interface ProfileFetcherOptions extends FetchLimits {
  maxEntries: number;
  defaultTtlMs: number;
  minTtlMs: number;
  maxTtlMs: number;
  /** Fetches (cache misses) one caller address may cause per window. */
  fetchesPerAddress: FetchCap;
  /** Fetches from one profile origin per window, whoever asks. */
  fetchesPerOrigin: FetchCap;
}

interface FetchCap {
  max: number;
  windowMs: number;
}

/**
 * At most `entries` entries, counted as sizes: lru-cache preallocates every slot of a `max`
 * (3.5 ms and 10,000-slot arrays per cache, four caches per gateway built), where sizes grow with use.
 */
function holding(entries: number) {
  return { maxSize: entries, sizeCalculation: () => 1 };
}

/** Fixed-window counters in this process: a bound on work, not a shared business budget. */
class FetchCounter {
  private readonly windows: LRUCache<string, { count: number; endsAt: number }>;

  constructor(
    private readonly cap: FetchCap,
    maxKeys: number,
  ) {
    this.windows = new LRUCache(holding(maxKeys));
  }

  /** Counts one fetch for `key`; the seconds to wait when the window is already full. */
  take(key: string, now: number): number | undefined {
    let window = this.windows.get(key);
    if (!window || window.endsAt <= now) this.windows.set(key, (window = { count: 0, endsAt: now + this.cap.windowMs }));
    if (window.count >= this.cap.max) return Math.max(1, Math.ceil((window.endsAt - now) / 1000));
    window.count++;
    return undefined;
  }
}

export const defaultProfileFetcherOptions: ProfileFetcherOptions = {
  maxEntries: 10_000,
  defaultTtlMs: 300_000,
  minTtlMs: 5_000,
  maxTtlMs: 86_400_000,
  fetchesPerAddress: { max: 30, windowMs: 60_000 },
  fetchesPerOrigin: { max: 120, windowMs: 60_000 },
  timeoutMs: 3_000,
  maxBytes: 256 * 1024,
};

const validateProfile = compile<PlatformProfile>(PlatformProfile);

function cacheTtl(cacheControl: string | string[] | undefined, options: ProfileFetcherOptions): number {
  const value = Array.isArray(cacheControl) ? cacheControl.join(',') : (cacheControl ?? '');
  if (/(^|,)\s*(no-store|no-cache)\s*(,|$)/i.test(value)) return options.minTtlMs;
  const maxAge = /(?:^|,)\s*max-age\s*=\s*(\d+)/i.exec(value)?.[1];
  const ttl = maxAge === undefined ? options.defaultTtlMs : Number(maxAge) * 1000;
  return Math.min(Math.max(ttl, options.minTtlMs), options.maxTtlMs);
}

/** The host name has no address (NXDOMAIN or no data), as opposed to a resolver that failed for now. */
function unresolvable(error: unknown): boolean {
  for (let e = error; e instanceof Error; e = e.cause) {
    if ((e as NodeJS.ErrnoException).code === 'ENOTFOUND') return true;
  }
  return false;
}

function checkProfileUrl(raw: string, allowLoopback: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ProtocolError('invalid_profile_url', `profile URL ${JSON.stringify(raw.slice(0, 200))} is not an absolute URL`);
  }
  if (url.username || url.password) throw new ProtocolError('invalid_profile_url', 'profile URL must not carry credentials');
  if (/[?#]/.test(raw)) throw new ProtocolError('invalid_profile_url', 'profile URL must not carry a query or fragment');
  const loopbackHost = url.hostname === 'localhost' || isLoopback(url.hostname.replace(/^\[|\]$/g, ''));
  const insecureAllowed = allowLoopback && loopbackHost && url.protocol === 'http:';
  if (url.protocol !== 'https:' && !insecureAllowed) {
    throw new ProtocolError('invalid_profile_url', 'profile URL must use https');
  }
  return url;
}

export class ProfileFetcher {
  private readonly cache: LRUCache<string, PlatformProfile, boolean>;
  private readonly checkedUrls: LRUCache<string, string>;
  private readonly byAddress: FetchCounter;
  private readonly byOrigin: FetchCounter;
  private readonly fetching = new Set<string>();
  hits = 0;
  misses = 0;

  constructor(
    private readonly options: ProfileFetcherOptions = defaultProfileFetcherOptions,
    private readonly now: () => number = Date.now,
  ) {
    this.checkedUrls = new LRUCache(holding(options.maxEntries));
    this.byAddress = new FetchCounter(options.fetchesPerAddress, options.maxEntries);
    this.byOrigin = new FetchCounter(options.fetchesPerOrigin, options.maxEntries);
    this.cache = new LRUCache<string, PlatformProfile, boolean>({
      ...holding(options.maxEntries),
      ttl: options.defaultTtlMs,
      // Entries age on the fetcher's clock, as its fetch windows do, read at every look-up (not kept for 1 ms).
      perf: { now },
      ttlResolution: 0,
      fetchMethod: async (key, _stale, { options: entry, context: allowLoopback }) => {
        const url = new URL(key.slice(key.indexOf('|') + 1));
        const { profile, ttl } = await this.download(url, allowLoopback);
        entry.ttl = ttl;
        return profile;
      },
    });
  }

  /**
   * The caller's profile, from cache when fresh. Throws ProtocolError on every failure. `address`
   * is the caller's network address, whose fetches are capped (as are the origin's).
   */
  async get(rawUrl: string, allowLoopback: boolean, address = 'unknown'): Promise<PlatformProfile> {
    const cached = this.cached(rawUrl, allowLoopback);
    if (cached) return cached;
    const key = this.keyOf(rawUrl, allowLoopback);
    this.misses++;
    // A fetch under way for the URL is shared (lru-cache's fetch), so it is counted once.
    if (!this.fetching.has(key)) this.capFetch(key, address);
    this.fetching.add(key);
    let profile;
    try {
      profile = await this.cache.fetch(key, { context: allowLoopback });
    } finally {
      this.fetching.delete(key);
    }
    if (!profile) throw new ProtocolError('profile_unreachable', `profile at ${key.slice(2)} could not be fetched`);
    return profile;
  }

  /**
   * The caller's profile when it is cached and fresh, counted as a hit; synchronous, so a caller
   * whose profile is cached (nearly every call) awaits no promise for it. Throws as `get` does.
   */
  cached(rawUrl: string, allowLoopback: boolean): PlatformProfile | undefined {
    const profile = this.cache.get(this.keyOf(rawUrl, allowLoopback));
    if (profile) this.hits++;
    return profile;
  }

  private capFetch(key: string, address: string): void {
    const now = this.now();
    const origin = new URL(key.slice(key.indexOf('|') + 1)).origin;
    const wait = this.byAddress.take(address, now) ?? this.byOrigin.take(origin, now);
    if (wait === undefined) return;
    throw new ProtocolError('rate_limited', `too many profile fetches from this address or from ${origin}; retry in ${wait} s`, {
      retryAfterSeconds: wait,
    });
  }

  /** The cache key of a checked URL; each distinct header value is parsed and checked once. */
  private keyOf(rawUrl: string, allowLoopback: boolean): string {
    const raw = `${allowLoopback ? 'L' : 'P'}|${rawUrl}`;
    let key = this.checkedUrls.get(raw);
    if (key === undefined) {
      key = `${allowLoopback ? 'L' : 'P'}|${checkProfileUrl(rawUrl, allowLoopback).href}`;
      this.checkedUrls.set(raw, key);
    }
    return key;
  }

  private async download(url: URL, allowLoopback: boolean): Promise<{ profile: PlatformProfile; ttl: number }> {
    let response;
    try {
      response = await safeFetch(url, allowLoopback, this.options);
    } catch (error) {
      if (unresolvable(error)) throw new ProtocolError('invalid_profile_url', `profile URL host ${url.hostname} does not resolve`);
      const reason = error instanceof FetchRefused ? error.message : 'the host did not answer in time or refused the connection';
      throw new ProtocolError('profile_unreachable', `profile at ${url.href} could not be fetched: ${reason}`);
    }
    if (response.status >= 300 && response.status < 400) {
      throw new ProtocolError(
        'profile_unreachable',
        `profile at ${url.href} answered a redirect (${response.status}); redirects are not followed`,
      );
    }
    if (response.status !== 200) {
      throw new ProtocolError('profile_unreachable', `profile at ${url.href} answered HTTP ${response.status}`);
    }
    let document: unknown;
    try {
      // Anyone can publish a profile: one that spells `__proto__` or `constructor.prototype` is refused like broken JSON.
      document = secureJson.parse(response.body.toString('utf8'), null, { protoAction: 'error', constructorAction: 'error' });
    } catch {
      throw new ProtocolError('profile_malformed', `profile at ${url.href} is not valid JSON or names __proto__ or constructor.prototype`);
    }
    const checked = validateProfile(document);
    if (!checked.ok) throw new ProtocolError('profile_malformed', `profile at ${url.href} is malformed: ${checked.message}`);
    return { profile: checked.value, ttl: cacheTtl(response.headers['cache-control'], this.options) };
  }

  clear(): void {
    this.cache.clear();
    this.checkedUrls.clear();
  }
}
