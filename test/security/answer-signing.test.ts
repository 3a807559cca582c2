/**
 * Response signing as a step of the pipeline's answer, independent of Fastify: what a transport
 * outside Fastify (one that hands over its bytes itself) sends verifies with the tenant's
 * published keys, and a tenant that does not sign gets no headers.
 */
import { describe, expect, it } from 'vitest';
import { signAnswer } from '../../src/pipeline/answer-signing.js';
import { contentDigest } from '../../src/security/content-digest.js';
import { KeySet } from '../../src/security/key-set.js';
import { Keyring } from '../../src/security/keyring.js';
import { verifyResponse } from '../../src/security/verify.js';
import { TenantSecurity } from '../../src/security/tenant-security.js';
import type { Tenant } from '../../src/tenancy/tenant.js';
import { newSigningKey, securityTenantConfig } from './helpers/secure-gateway.js';

const now = Date.now;

async function tenantSigning(signResponses: boolean): Promise<{ tenant: Tenant; keys: KeySet }> {
  const key = await newSigningKey('ES256');
  const keyring = new Keyring([key], key, false);
  const security = new TenantSecurity({ ...securityTenantConfig, signing: { sign_responses: signResponses } }, keyring, 'test/tenant.yaml');
  return { tenant: { security } as Tenant, keys: await KeySet.from([key.publicJwk]) };
}

describe('signAnswer', () => {
  it('signs the exact bytes a transport sends, so a platform verifies them with the published key', async () => {
    const { tenant, keys } = await tenantSigning(true);
    const body = '{"proto":{"version":"2026-04-08","status":"success"},"id":"chk_1","prix":"déjà"}';
    const headers = signAnswer(tenant, { status: 201, contentType: 'application/json', body }, now)!;
    expect(headers['content-digest']).toBe(contentDigest(Buffer.from(body, 'utf8')));
    const message = { status: 201, headers: { 'content-type': 'application/json', ...headers }, body: Buffer.from(body, 'utf8') };
    await expect(verifyResponse(message, keys, { now })).resolves.toHaveLength(1);
    // One byte changed: the signature no longer verifies.
    await expect(verifyResponse({ ...message, body: Buffer.from(body.replace('chk_1', 'chk_2')) }, keys, { now })).rejects.toThrow();
    // Another status over the same bytes: neither.
    await expect(verifyResponse({ ...message, status: 200 }, keys, { now })).rejects.toThrow();
  });

  it('gives distinct answers in the same second their own signatures', async () => {
    const { tenant, keys } = await tenantSigning(true);
    for (const body of ['{"id":"a"}', '{"id":"b"}']) {
      const headers = signAnswer(tenant, { status: 200, contentType: 'application/json', body }, now)!;
      await expect(
        verifyResponse({ status: 200, headers: { 'content-type': 'application/json', ...headers }, body }, keys, { now }),
      ).resolves.toHaveLength(1);
    }
  });

  it('adds nothing for a tenant that does not sign its responses', async () => {
    const { tenant } = await tenantSigning(false);
    expect(signAnswer(tenant, { status: 200, contentType: 'application/json', body: '{}' }, now)).toBeUndefined();
  });
});
