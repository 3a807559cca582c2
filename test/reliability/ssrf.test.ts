/**
 * SSRF through the caller's profile URL, the one URL a caller makes the gateway fetch: private,
 * link-local, CGNAT and reserved addresses in every spelling (IPv6 transition forms carrying
 * them included), DNS names resolving to them (a
 * mocked resolver, so nothing is asked of the network), loopback when the tenant does not allow
 * it, redirects, and bodies too large or too slow. Each is refused with a discovery error on
 * every operation over REST and MCP, before the operation touches the store or the backend.
 * A tripwire under every socket proves no connection left loopback.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { operations } from '../../src/pipeline/table.js';
import { defaultProfileFetcherOptions, ProfileFetcher } from '../../src/protocol/profile-fetcher.js';
import { platformProfile, startPlatform, type PlatformServer } from '../helpers/platform.js';
import { reliabilityGateway, type ReliabilityGateway } from './helpers/reliability-gateway.js';
import { faulty, type FaultyAdapter } from './helpers/faulty.js';
import { installNetworkTripwire, type Tripwire } from './helpers/network-tripwire.js';
import { problemWith, send, TRANSPORTS } from './helpers/operation-client.js';
import { goodPayload } from './helpers/resources.js';
import { Tally } from './helpers/tally.js';

/** Names the mocked resolver answers; every other name goes to the system resolver (localhost only, the tripwire sees to that). */
vi.mock('node:dns', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:dns')>();
  const names: Record<string, Array<{ address: string; family: number }>> = {
    'internal.test': [{ address: '10.20.30.40', family: 4 }],
    'metadata.test': [{ address: '169.254.169.254', family: 4 }],
    'cgnat.test': [{ address: '100.64.1.1', family: 4 }],
    'ula.test': [{ address: 'fd00::1', family: 6 }],
    'mapped.test': [{ address: '::ffff:192.168.0.1', family: 6 }],
    'mixed.test': [
      { address: '192.168.1.20', family: 4 },
      { address: '172.16.0.9', family: 4 },
    ],
    'loopback.test': [{ address: '127.0.0.1', family: 4 }],
    'sixtofour.test': [{ address: '2002:a00:1::1', family: 6 }],
  };
  const lookup = (hostname: string, options: any, callback?: any) => {
    const cb = typeof options === 'function' ? options : callback;
    const opts = typeof options === 'function' ? {} : (options ?? {});
    const entries = names[hostname];
    if (!entries) return (actual.lookup as any)(hostname, opts, cb);
    if (opts.all) return process.nextTick(() => cb(null, entries));
    process.nextTick(() => cb(null, entries[0]!.address, entries[0]!.family));
  };
  return { ...actual, default: { ...actual, lookup }, lookup };
});

const RESOLVED = [
  'internal.test',
  'metadata.test',
  'cgnat.test',
  'ula.test',
  'mapped.test',
  'mixed.test',
  'loopback.test',
  'sixtofour.test',
];
const tally = new Tally('ssrf');

let tripwire: Tripwire;
let platform: PlatformServer;
/** Loopback profiles allowed (local development), like every test tenant. */
let loose: ReliabilityGateway;
/** Loopback refused, as in production. */
let strict: ReliabilityGateway;
let looseBackend: FaultyAdapter;
let strictBackend: FaultyAdapter;

// Fetch caps lifted: every attempt here comes from one address, and each must reach the address guard.
const UNCAPPED = { max: Number.MAX_SAFE_INTEGER, windowMs: 60_000 };
const fetcher = () =>
  new ProfileFetcher({
    ...defaultProfileFetcherOptions,
    timeoutMs: 300,
    maxBytes: 16 * 1024,
    fetchesPerAddress: UNCAPPED,
    fetchesPerOrigin: UNCAPPED,
  });

beforeAll(async () => {
  tripwire = installNetworkTripwire(RESOLVED);
  platform = await startPlatform();
  loose = await reliabilityGateway({ platform, gateway: { profiles: fetcher() }, wrapAdapter: (a) => (looseBackend = faulty(a)) });
  strict = await reliabilityGateway({
    platform,
    gateway: { profiles: fetcher() },
    wrapAdapter: (a) => (strictBackend = faulty(a)),
    tenant: { policies: { allow_loopback_profiles: false } },
  });
  serveHostileProfiles(platform);
});
afterAll(async () => {
  tally.print();
  await loose?.close();
  await strict?.close();
  await platform?.close();
  tripwire.uninstall();
});

/** Private, link-local, CGNAT, reserved and multicast addresses, literally and through DNS. */
const PRIVATE = [
  'https://10.0.0.1/.well-known/proto',
  'https://172.16.5.4/.well-known/proto',
  'https://192.168.1.1/.well-known/proto',
  'https://100.64.0.1/.well-known/proto',
  'https://169.254.169.254/latest/meta-data/',
  'https://0.0.0.0/.well-known/proto',
  'https://224.0.0.1/.well-known/proto',
  'https://[fe80::1]/.well-known/proto',
  'https://[fd12:3456::1]/.well-known/proto',
  'https://[::ffff:10.0.0.1]/.well-known/proto',
  'https://[::]/.well-known/proto',
  'https://[2002:c0a8:101::1]/.well-known/proto', // 6to4 of 192.168.1.1
  'https://[::ffff:0:a9fe:a9fe]/latest', // IPv4-translated 169.254.169.254
  'https://[64:ff9b::10.0.0.1]/.well-known/proto', // NAT64 of 10.0.0.1
  'https://sixtofour.test/.well-known/proto',
  'https://0xa9.0xfe.0xa9.0xfe/latest', // 169.254.169.254 in hex
  'https://2852039166/latest', // the same as one number
  'https://internal.test/.well-known/proto',
  'https://metadata.test/latest/meta-data/',
  'https://cgnat.test/.well-known/proto',
  'https://ula.test/.well-known/proto',
  'https://mapped.test/.well-known/proto',
  'https://mixed.test/.well-known/proto',
  'http://internal.test/.well-known/proto',
];

/** Loopback in every spelling, and names resolving to it: refused when the tenant does not allow loopback. */
const loopback = () => {
  const port = new URL(platform.origin).port;
  return [
    `https://127.0.0.1:${port}/.well-known/proto`,
    `https://127.1.2.3:${port}/.well-known/proto`,
    `https://[::1]:${port}/.well-known/proto`,
    `https://[::ffff:127.0.0.1]:${port}/.well-known/proto`,
    `https://[::127.0.0.1]:${port}/.well-known/proto`, // IPv4-compatible
    `https://[::ffff:0:7f00:1]:${port}/.well-known/proto`, // IPv4-translated
    `https://[2002:7f00:1::1]:${port}/.well-known/proto`, // 6to4
    `https://2130706433:${port}/.well-known/proto`,
    `https://0x7f.1:${port}/.well-known/proto`,
    `https://localhost:${port}/.well-known/proto`,
    `https://loopback.test:${port}/.well-known/proto`,
    `http://127.0.0.1:${port}/.well-known/proto`,
    `http://localhost:${port}/.well-known/proto`,
  ];
};

const NOT_ALLOWED = /addresses are not allowed|must use https/;

const REDIRECTS = [301, 302, 303, 307, 308];

function serveHostileProfiles(p: PlatformServer): void {
  const good = JSON.stringify(platformProfile());
  for (const status of REDIRECTS) {
    p.serve(`/redirect/${status}/private`, (res) => res.writeHead(status, { location: 'http://10.0.0.1/.well-known/proto' }).end());
    p.serve(`/redirect/${status}/loopback`, (res) => res.writeHead(status, { location: p.url('/redirect-target') }).end());
  }
  p.serve('/redirect-target', platformProfile());
  p.serve('/huge-declared', (res) =>
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024) }).end(good),
  );
  p.serve('/huge-chunked', (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(`{"proto":${good.slice(9, -1)},"padding":"`);
    const chunk = 'x'.repeat(4096);
    let sent = 0;
    const pump = () => {
      while (sent < 64 && res.write(chunk)) sent++;
      if (sent < 64) res.once('drain', pump);
      else res.end('"}');
    };
    pump();
  });
  p.serve('/slow-headers', (res) => drip(res, 0, 5000));
  p.serve('/slow-body', (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    drip(res, 200, good.length);
  });
}

/** Writes one byte of a profile every `everyMs` ms (headers only once `everyMs` > 0), until the client goes away. */
function drip(res: ServerResponse, everyMs: number, bytes: number): void {
  if (everyMs === 0) {
    const timer = setTimeout(() => res.writeHead(200).end('{}'), bytes);
    res.once('close', () => clearTimeout(timer));
    return;
  }
  let sent = 0;
  const timer = setInterval(() => {
    if (res.destroyed || sent >= bytes) return clearInterval(timer);
    res.write(' ');
    sent++;
  }, everyMs);
  res.once('close', () => clearInterval(timer));
}

/** `reason`: what the refusal must say (the guard's own reason, not the failure a refused connection would give). */
async function refusedEverywhere(
  gw: ReliabilityGateway,
  backend: FaultyAdapter,
  profile: string,
  reason: RegExp = NOT_ALLOWED,
): Promise<void> {
  const before = platform.hits('/redirect-target');
  const cases = operations.flatMap((op) => TRANSPORTS.map((transport) => ({ op, transport })));
  const answers = await Promise.all(
    cases.map(({ op, transport }) => {
      const payload = goodPayload(op);
      return send(gw, { op, transport, profile, ...(op.mcp.id && { id: 'cart_any' }), ...(payload && { payload }) });
    }),
  );
  for (const [i, answer] of answers.entries()) {
    tally.record(answer);
    const name = `${cases[i]!.op.name} over ${answer.transport} with ${profile}`;
    expect(problemWith(answer), name).toBeUndefined();
    expect(answer.kind, name).toBe('transport');
    expect(['invalid_profile_url', 'profile_unreachable'], `${name}: ${answer.text}`).toContain(answer.code);
    expect(answer.transport === 'rest' ? answer.status : answer.body.data.http_status, name).toBeOneOf([400, 424]);
    // The refusal says why, and echoes nothing but the caller's URL: no address it resolved to, no socket error.
    expect(answer.text, name).toMatch(reason);
    expect(answer.text, name).not.toMatch(/ECONNREFUSED|ENOTFOUND|10\.20\.30\.40|tripwire/);
  }
  expect(
    Object.values(backend.calls).reduce((a, b) => a + b, 0),
    'the backend was never called',
  ).toBe(0);
  expect(platform.hits('/redirect-target'), 'a redirect was followed').toBe(before);
}

describe('profile URLs that must never be fetched', () => {
  it.each(PRIVATE)('%s is refused on every operation, loopback allowed or not', async (url) => {
    await refusedEverywhere(loose, looseBackend, url);
    await refusedEverywhere(strict, strictBackend, url);
  });

  it('loopback, in every spelling and through DNS, is refused when the tenant does not allow it', async () => {
    const hits = platform.hits('/.well-known/proto');
    for (const url of loopback()) await refusedEverywhere(strict, strictBackend, url);
    expect(platform.hits('/.well-known/proto'), 'the loopback platform was reached').toBe(hits);
  });

  it.each(REDIRECTS)('a %s redirect is never followed, to a private address or anywhere else', async (status) => {
    await refusedEverywhere(loose, looseBackend, platform.url(`/redirect/${status}/private`), /redirects are not followed/);
    await refusedEverywhere(loose, looseBackend, platform.url(`/redirect/${status}/loopback`), /redirects are not followed/);
  });

  it.each([
    ['/huge-declared', /larger than 16384 bytes/],
    ['/huge-chunked', /larger than 16384 bytes/],
    ['/slow-headers', /did not answer in time/],
    ['/slow-body', /did not answer in time/],
  ])('a profile at %s (too large or too slow) is refused', async (path, reason) => {
    await refusedEverywhere(loose, looseBackend, platform.url(path), reason);
  });

  it('no connection left loopback, and the resolver was asked only about names the test answers', () => {
    expect(tripwire.tripped).toEqual([]);
  });
});
