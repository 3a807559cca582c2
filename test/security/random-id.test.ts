import { describe, expect, it } from 'vitest';
import { randomId } from '../../src/security/random-id.js';

describe('random ids', () => {
  it('never repeat across many pool refills, and are prefix + base64url of the asked length', () => {
    const ids = Array.from({ length: 3000 }, (_, i) => (i % 3 === 0 ? randomId('evt_', 24) : randomId('li_')));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => id.startsWith('li_')).every((id) => /^li_[A-Za-z0-9_-]{22}$/.test(id))).toBe(true);
    expect(ids.filter((id) => id.startsWith('evt_')).every((id) => /^evt_[A-Za-z0-9_-]{32}$/.test(id))).toBe(true);
  });
});
