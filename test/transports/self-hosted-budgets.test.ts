/**
 * Budgets belong to principals, and a profile anyone can host proves no principal worth a budget of
 * its own (issue 46 item 5): callers proven only by keys they published themselves, however many
 * profiles they host, share their network address's budget; a platform the tenant lists (or an
 * API key, token or certificate) keeps its own.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { TenantConfig } from '../../src/config/tenant-schema.js';
import { newSigningKey, secureGateway, type Outgoing, type SecureGateway } from '../security/helpers/secure-gateway.js';

const LIMIT = 10;
const policies = { allow_loopback_profiles: true, rate_limits: { per_caller: { max: LIMIT, window_seconds: 60 } } };

let gw: SecureGateway | undefined;
afterEach(async () => {
  await gw?.close();
  gw = undefined;
});

/** Six profiles one party hosts, each publishing a key of its own; a signer for each. */
async function selfHosted(target: SecureGateway) {
  return Promise.all(
    Array.from({ length: 6 }, async (_, n) => {
      const key = await newSigningKey();
      const profile = `/self-hosted/${n}/.well-known/proto`;
      target.publish(profile, [key.publicJwk]);
      return (remoteAddress = '203.0.113.5') =>
        target.send({
          ...target.request({ method: 'GET', path: `/counters/${randomUUID()}`, profile, sign: { key } }),
          remoteAddress,
        } as Outgoing);
    }),
  );
}

const served = (statuses: number[]) => statuses.filter((s) => s !== 429).length;

describe.each<[string, TenantConfig['auth']]>([
  ['signatures from any profile authenticate (any_profile)', { signatures: { any_profile: true } }],
  ['only listed profiles authenticate (the default)', {}],
])('six self-hosted profiles from one address, %s', (_name, auth) => {
  it(`share that address's budget: ${LIMIT} calls a window in all, not ${LIMIT} each`, async () => {
    gw = await secureGateway({ tenant: { policies, ...(auth && { auth }) } });
    const signers = await selfHosted(gw);
    const statuses: number[] = [];
    for (let round = 0; round < LIMIT; round++) for (const signer of signers) statuses.push((await signer()).statusCode);
    expect(statuses).toHaveLength(60);
    expect(served(statuses)).toBe(LIMIT);
    // Another address has a budget of its own.
    expect((await signers[0]!('203.0.113.6')).statusCode).toBe(200);
  });
});

it('a platform the tenant lists keeps its own budget when self-hosted profiles have spent the address’s', async () => {
  gw = await secureGateway({
    tenant: (platform) => ({ policies, auth: { signatures: { profiles: [platform.url()], any_profile: true } } }),
  });
  const signers = await selfHosted(gw);
  for (let i = 0; i < LIMIT; i++) await signers[i % 6]!();
  expect((await signers[0]!()).statusCode).toBe(429);
  const listed = () =>
    gw!.send({ ...gw!.request({ method: 'GET', path: `/counters/${randomUUID()}` }), remoteAddress: '203.0.113.5' } as Outgoing);
  const statuses: number[] = [];
  for (let i = 0; i < LIMIT + 1; i++) statuses.push((await listed()).statusCode);
  expect(served(statuses)).toBe(LIMIT);
});
