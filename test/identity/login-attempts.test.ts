/** What a reservation costs an account and an address, by outcome (src/identity/login-attempts.ts). */
import { describe, expect, it } from 'vitest';
import { LoginAttempts } from '../../src/identity/login-attempts.js';
import { MemoryStore } from '../../src/state/memory-store.js';

const limits = { perAccount: 2, perAddress: 3, windowMs: 60_000 };

describe('login attempt reservations', () => {
  it('a wrong password keeps its reservation: the account is refused at its limit, another account is not', async () => {
    const attempts = new LoginAttempts(new MemoryStore(), 'shop', limits);
    expect(await attempts.reserve('a@example.com', '198.51.100.1')).toBe(true);
    expect(await attempts.reserve('A@example.com ', '198.51.100.2')).toBe(true);
    expect(await attempts.reserve('a@example.com', '198.51.100.3')).toBe(false);
    expect(await attempts.reserve('b@example.com', '198.51.100.1')).toBe(true);
  });

  it('the address limit counts every account; a refused account takes nothing from the address', async () => {
    const attempts = new LoginAttempts(new MemoryStore(), 'shop', limits);
    for (const email of ['a@x.example', 'a@x.example', 'a@x.example', 'b@x.example', 'c@x.example'])
      await attempts.reserve(email, '198.51.100.1');
    expect(await attempts.reserve('d@x.example', '198.51.100.1')).toBe(false);
    expect(await attempts.reserve('d@x.example', '198.51.100.9')).toBe(true);
  });

  it('a success clears its account and gives the address its reservation back; an abandoned attempt gives both back', async () => {
    const attempts = new LoginAttempts(new MemoryStore(), 'shop', limits);
    await attempts.reserve('a@x.example', '198.51.100.1');
    await attempts.reserve('a@x.example', '198.51.100.1');
    await attempts.succeeded('a@x.example', '198.51.100.1');
    expect(await attempts.reserve('a@x.example', '198.51.100.1')).toBe(true);
    await attempts.abandoned('a@x.example', '198.51.100.1');
    await attempts.reserve('b@x.example', '198.51.100.1');
    await attempts.reserve('c@x.example', '198.51.100.1');
    // Address: 2 - 1 (success) + 1 - 1 (abandoned) + 2 = 3, at its limit.
    expect(await attempts.reserve('d@x.example', '198.51.100.1')).toBe(false);
    expect(await attempts.reserve('a@x.example', '198.51.100.2')).toBe(true);
  });
});
