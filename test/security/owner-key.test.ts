/** Who owns what a call creates (security/auth/principal.ts ownerKey): A2A contexts key by it. */
import { describe, expect, it } from 'vitest';
import { ANONYMOUS, ownerKey, type Principal } from '../../src/security/auth/principal.js';

const PROFILE = 'https://agent.example/.well-known/proto';
const platform = (via: 'api_key' | 'signature', profileUrl = PROFILE): Principal => ({ kind: 'platform', profileUrl, via });
const buyer = (buyerId: string): Principal => ({ kind: 'buyer', buyerId, scopes: [], profileUrl: PROFILE });

describe('ownerKey', () => {
  it('is the platform, however it proved itself, its profile URL compared as a URL', () => {
    expect(ownerKey(platform('api_key'), PROFILE)).toBe(ownerKey(platform('signature'), PROFILE));
    expect(ownerKey(platform('api_key', 'https://AGENT.example:443/.well-known/proto'), PROFILE)).toBe(
      ownerKey(platform('api_key'), PROFILE),
    );
  });

  it('tells apart two buyers linked through the same platform, and a buyer from the platform itself', () => {
    expect(ownerKey(buyer('buyer-1'), PROFILE)).not.toBe(ownerKey(buyer('buyer-2'), PROFILE));
    expect(ownerKey(buyer('buyer-1'), PROFILE)).not.toBe(ownerKey(platform('api_key'), PROFILE));
  });

  it('never gives a caller that proved nothing the key of the platform whose profile it names', () => {
    expect(ownerKey(ANONYMOUS, PROFILE)).not.toBe(ownerKey(platform('api_key'), PROFILE));
    expect(ownerKey(ANONYMOUS, PROFILE)).toBe(ownerKey(ANONYMOUS, 'https://agent.example/.well-known/proto'));
    expect(ownerKey(ANONYMOUS, PROFILE)).not.toBe(ownerKey(ANONYMOUS, 'https://other.example/.well-known/proto'));
  });
});
