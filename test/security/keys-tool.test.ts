/** `npm run keys -- generate`: the printed key pair loads into the gateway and signs verifiably. */
import { describe, expect, it } from 'vitest';
import { run } from '../../scripts/keys.js';
import { requestMessage } from '../../src/security/http-message.js';
import { KeySet } from '../../src/security/key-set.js';
import { loadKeyring } from '../../src/security/keyring.js';
import { signRequest } from '../../src/security/sign.js';
import { verifyRequest } from '../../src/security/verify.js';

async function generate(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(['generate', ...args], { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out, err };
}

describe('the key tool', () => {
  for (const alg of ['ES256', 'ES384', 'EdDSA'] as const) {
    it(`prints a usable ${alg} key pair and how to reference it`, async () => {
      const { code, out } = await generate('--alg', alg);
      expect(code).toBe(0);
      const [privateJwk, publicJwk] = out.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, string>);
      expect(privateJwk).toMatchObject({ alg, use: 'sig', d: expect.any(String) });
      expect(publicJwk).not.toHaveProperty('d');
      expect(publicJwk!.kid).toBe(privateJwk!.kid);
      expect(out.at(-1)).toContain(`active_kid: "${privateJwk!.kid}"`);

      // The printed private key loads as the gateway loads it (kid = thumbprint is checked there) ...
      const keyring = await loadKeyring({ keys: [{ env: 'KEY' }], active_kid: privateJwk!.kid }, 'tenant.yaml', '.', { KEY: out[1]! });
      // ... and what it signs verifies with the printed public key alone.
      const request = {
        method: 'POST',
        url: 'https://platform.example/hook',
        headers: { 'content-type': 'application/json' },
        body: '{"ok":true}',
      };
      const headers = signRequest(request, { key: keyring.active!, now: Date.now });
      await expect(
        verifyRequest(requestMessage({ ...request, headers }), await KeySet.from([publicJwk]), { now: Date.now }),
      ).resolves.toHaveLength(1);
    });
  }

  it('--private-only prints the private JWK alone, ready for an environment variable', async () => {
    const { code, out } = await generate('--private-only');
    expect(code).toBe(0);
    expect(out).toHaveLength(1);
    const keyring = await loadKeyring({ keys: [{ env: 'KEY' }] }, 'tenant.yaml', '.', { KEY: out[0]! });
    expect(keyring.active?.kid).toBe((JSON.parse(out[0]!) as { kid: string }).kid);
  });

  it('defaults to ES256 and refuses unknown commands or algorithms with usage', async () => {
    expect(JSON.parse((await generate()).out[1]!)).toMatchObject({ kty: 'EC', crv: 'P-256' });
    const bad = await generate('--alg', 'RS256');
    expect(bad.code).toBe(2);
    expect(bad.err[0]).toMatch(/^usage:\n {2}npm run keys -- generate/);
    expect(bad.out).toEqual([]);
    expect(await run(['rotate'], { out: () => undefined, err: () => undefined })).toBe(2);
  });
});
