import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ProtocolError } from '../../src/protocol/errors.js';
import { defaultProfileFetcherOptions, ProfileFetcher } from '../../src/protocol/profile-fetcher.js';
import { platformProfile, startPlatform, type PlatformServer } from '../helpers/platform.js';

/** A name no resolver knows; every other name goes to the system resolver. */
vi.mock('node:dns', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:dns')>();
  const lookup = (hostname: string, options: any, callback?: any) => {
    const cb = typeof options === 'function' ? options : callback;
    if (hostname !== 'nowhere.test') return (actual.lookup as any)(hostname, options, callback);
    const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
    process.nextTick(() => cb(error));
  };
  return { ...actual, default: { ...actual, lookup }, lookup };
});

let platform: PlatformServer;
beforeAll(async () => {
  platform = await startPlatform();
});
afterAll(() => platform.close());

async function failure(fetcher: ProfileFetcher, url: string, allowLoopback = true): Promise<string> {
  try {
    await fetcher.get(url, allowLoopback);
    return 'no error';
  } catch (error) {
    if (!(error instanceof ProtocolError)) throw error;
    return `${error.status} ${error.code}`;
  }
}

describe('fetching platform profiles', () => {
  it('fetches once and serves later calls from the cache', async () => {
    const fetcher = new ProfileFetcher();
    platform.serve('/cached', platformProfile(), { 'cache-control': 'max-age=60' });
    const [a, b] = await Promise.all([fetcher.get(platform.url('/cached'), true), fetcher.get(platform.url('/cached'), true)]);
    await fetcher.get(platform.url('/cached'), true);
    expect(a.proto.version).toBe('2026-04-08');
    expect(b).toEqual(a);
    expect(platform.hits('/cached')).toBe(1);
    expect(fetcher.hits).toBeGreaterThanOrEqual(1);
  });

  it('answers a profile synchronously only once it is cached, counting the hit, and never fetches for it', async () => {
    const fetcher = new ProfileFetcher();
    platform.serve('/sync', platformProfile(), { 'cache-control': 'max-age=60' });
    expect(fetcher.cached(platform.url('/sync'), true)).toBeUndefined();
    const fetched = await fetcher.get(platform.url('/sync'), true);
    const hits = fetcher.hits;
    expect(fetcher.cached(platform.url('/sync'), true)).toEqual(fetched);
    expect(fetcher.hits).toBe(hits + 1);
    expect(platform.hits('/sync')).toBe(1);
    expect(() => fetcher.cached('http://example.com/p', false)).toThrow(ProtocolError);
  });

  it('holds at most maxEntries profiles: the least recently used one is fetched again', async () => {
    const fetcher = new ProfileFetcher({ ...defaultProfileFetcherOptions, maxEntries: 2 });
    for (const path of ['/held/a', '/held/b', '/held/c']) platform.serve(path, platformProfile(), { 'cache-control': 'max-age=600' });
    for (const path of ['/held/a', '/held/b', '/held/c', '/held/c', '/held/a']) await fetcher.get(platform.url(path), true);
    expect(['/held/a', '/held/b', '/held/c'].map((p) => platform.hits(p))).toEqual([2, 1, 1]);
  });

  it('refetches once max-age has passed on its clock, not before', async () => {
    let now = 1_000_000;
    const fetcher = new ProfileFetcher(defaultProfileFetcherOptions, () => now);
    platform.serve('/short', platformProfile(), { 'cache-control': 'max-age=30' });
    await fetcher.get(platform.url('/short'), true);
    now += 30_000;
    await fetcher.get(platform.url('/short'), true);
    expect(platform.hits('/short')).toBe(1);
    now += 1;
    await fetcher.get(platform.url('/short'), true);
    expect(platform.hits('/short')).toBe(2);
  });

  it('400 invalid_profile_url for what is not an https URL', async () => {
    const fetcher = new ProfileFetcher();
    expect(await failure(fetcher, 'not a url')).toBe('400 invalid_profile_url');
    expect(await failure(fetcher, 'ftp://agent.example/profile')).toBe('400 invalid_profile_url');
    expect(await failure(fetcher, 'http://agent.example/.well-known/proto')).toBe('400 invalid_profile_url');
    expect(await failure(fetcher, 'https://user:pw@agent.example/.well-known/proto')).toBe('400 invalid_profile_url');
  });

  it('400 invalid_profile_url for a profile URL with a query or a fragment (one profile, one URL), before any fetch', async () => {
    const fetcher = new ProfileFetcher();
    platform.serve('/queried', platformProfile());
    for (const suffix of ['?rot=1', '?', '#x', '?a=1#b']) {
      expect(await failure(fetcher, platform.url(`/queried${suffix}`)), suffix).toBe('400 invalid_profile_url');
    }
    expect(platform.hits('/queried')).toBe(0);
  });

  it('caps fetches per caller address and per profile origin (429 past either); cached profiles and shared fetches cost none', async () => {
    let now = 1_000_000;
    const fetcher = new ProfileFetcher(
      { ...defaultProfileFetcherOptions, fetchesPerAddress: { max: 3, windowMs: 60_000 }, fetchesPerOrigin: { max: 5, windowMs: 60_000 } },
      () => now,
    );
    const paths = Array.from({ length: 8 }, (_, i) => `/capped/${i}`);
    for (const path of paths) platform.serve(path, platformProfile(), { 'cache-control': 'max-age=600' });
    const fetchAs = async (address: string, path: string) => {
      try {
        await fetcher.get(platform.url(path), true, address);
        return 'ok';
      } catch (error) {
        return `${(error as ProtocolError).status} ${(error as ProtocolError).code} ${(error as ProtocolError).extra.retryAfterSeconds}`;
      }
    };
    // One address: three new URLs are fetched (two at once, for the same URL, count once), the fourth is refused unfetched.
    await Promise.all([fetchAs('198.51.100.1', paths[0]!), fetchAs('198.51.100.1', paths[0]!)]);
    expect(await fetchAs('198.51.100.1', paths[1]!)).toBe('ok');
    expect(await fetchAs('198.51.100.1', paths[2]!)).toBe('ok');
    expect(await fetchAs('198.51.100.1', paths[3]!)).toBe('429 rate_limited 60');
    expect(platform.hits(paths[3]!)).toBe(0);
    // ... while what is cached still answers.
    expect(await fetchAs('198.51.100.1', paths[0]!)).toBe('ok');
    expect(platform.hits(paths[0]!)).toBe(1);
    // The origin: five fetches in all, whichever addresses ask.
    expect(await fetchAs('198.51.100.2', paths[3]!)).toBe('ok');
    expect(await fetchAs('198.51.100.3', paths[4]!)).toBe('ok');
    expect(await fetchAs('198.51.100.4', paths[5]!)).toMatch(/^429 rate_limited/);
    expect(platform.hits(paths[5]!)).toBe(0);
    // A new window fetches again.
    now += 60_000;
    expect(await fetchAs('198.51.100.1', paths[5]!)).toBe('ok');
  });

  it('400 invalid_profile_url for a host name that does not resolve', async () => {
    const fetcher = new ProfileFetcher();
    expect(await failure(fetcher, 'https://nowhere.test/.well-known/proto')).toBe('400 invalid_profile_url');
  });

  it('plain http to loopback only when the tenant allows it', async () => {
    const fetcher = new ProfileFetcher();
    expect(await failure(fetcher, platform.url(), false)).toBe('400 invalid_profile_url');
    expect(await failure(fetcher, platform.url(), true)).toBe('no error');
  });

  it('424 profile_unreachable when nothing answers, on errors and on redirects', async () => {
    const fetcher = new ProfileFetcher();
    expect(await failure(fetcher, 'http://127.0.0.1:1/.well-known/proto')).toBe('424 profile_unreachable');
    platform.serve('/gone', (res) => res.writeHead(500).end());
    expect(await failure(fetcher, platform.url('/gone'))).toBe('424 profile_unreachable');
    platform.serve('/moved', (res) => res.writeHead(302, { location: platform.url() }).end());
    expect(await failure(fetcher, platform.url('/moved'))).toBe('424 profile_unreachable');
  });

  it('424 when the profile is too slow or too large', async () => {
    const fetcher = new ProfileFetcher({ ...defaultProfileFetcherOptions, timeoutMs: 200, maxBytes: 1024 });
    platform.serve('/slow', (res) => setTimeout(() => res.writeHead(200).end('{}'), 1000));
    platform.serve('/huge', platformProfile(undefined, { padding: 'x'.repeat(5000) }));
    expect(await failure(fetcher, platform.url('/slow'))).toBe('424 profile_unreachable');
    expect(await failure(fetcher, platform.url('/huge'))).toBe('424 profile_unreachable');
  });

  it('refuses private and link-local addresses even when loopback is allowed', async () => {
    const fetcher = new ProfileFetcher({ ...defaultProfileFetcherOptions, timeoutMs: 500 });
    for (const url of [
      'https://10.0.0.1/p',
      'https://169.254.169.254/latest',
      'https://[fe80::1]/p',
      'https://192.168.1.1/p',
      'https://[::ffff:10.0.0.1]/p',
    ]) {
      expect(await failure(fetcher, url), url).toBe('424 profile_unreachable');
    }
  });

  it('refuses a DNS name that resolves to loopback when loopback is not allowed', async () => {
    const fetcher = new ProfileFetcher({ ...defaultProfileFetcherOptions, timeoutMs: 500 });
    // localhost resolves to 127.0.0.1/::1 without any network.
    expect(await failure(fetcher, `https://localhost:${new URL(platform.origin).port}/.well-known/proto`, false)).toBe(
      '424 profile_unreachable',
    );
  });

  it('422 profile_malformed for what is not JSON or not a profile', async () => {
    const fetcher = new ProfileFetcher();
    platform.serve('/text', (res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>'));
    platform.serve('/shape', { proto: { version: 12 } });
    platform.serve('/caps', { proto: { version: '2026-04-08', capabilities: { 'dev.proto.shopping.cart': 'yes' } } });
    expect(await failure(fetcher, platform.url('/text'))).toBe('422 profile_malformed');
    expect(await failure(fetcher, platform.url('/shape'))).toBe('422 profile_malformed');
    expect(await failure(fetcher, platform.url('/caps'))).toBe('422 profile_malformed');
  });

  it('422 profile_malformed for a profile that spells __proto__ or constructor.prototype', async () => {
    const fetcher = new ProfileFetcher();
    const text = JSON.stringify(platformProfile());
    const poisoned = {
      '/proto-key': text.replace('{"proto":{', '{"proto":{"__proto__":{"polluted":true},'),
      '/constructor-key': text.replace('{"proto":{', '{"proto":{"constructor":{"prototype":{"polluted":true}},'),
    };
    for (const [path, body] of Object.entries(poisoned)) {
      expect(body).not.toBe(text);
      platform.serve(path, (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
      expect(await failure(fetcher, platform.url(path))).toBe('422 profile_malformed');
    }
  });
});
