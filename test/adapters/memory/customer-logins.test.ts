/** The demo store's customer accounts: the documented demo password logs a customer in, nothing else does. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { customerLogins, hashPassword } from '../../../adapters/memory/customer-logins.js';
import { createMemoryAdapter } from '../../../adapters/memory/index.js';
import { MemoryStore } from '../../../src/state/memory-store.js';

const demo = () =>
  createMemoryAdapter({
    dataDir: join(process.cwd(), 'config/demo'),
    storefrontUrl: 'https://flowers.example',
    now: Date.now,
    store: new MemoryStore(),
    tenantId: 'shop',
  });

describe('demo customer login', () => {
  it('accepts the documented demo password, answering the store customer id and its email', async () => {
    const adapter = await demo();
    await expect(adapter.authenticateCustomer!({ email: 'jane.smith@example.com', password: 'demo-flowers' })).resolves.toEqual({
      customerId: 'cust_2',
      email: 'jane.smith@example.com',
    });
    // Email case and surrounding spaces do not matter; the password's do.
    await expect(adapter.authenticateCustomer!({ email: ' John.Doe@Example.com', password: 'demo-flowers' })).resolves.toMatchObject({
      customerId: 'cust_1',
    });
    await expect(adapter.authenticateCustomer!({ email: 'john.doe@example.com', password: 'Demo-flowers' })).resolves.toBeNull();
    await expect(adapter.authenticateCustomer!({ email: 'nobody@example.com', password: 'demo-flowers' })).resolves.toBeNull();
    await expect(adapter.authenticateCustomer!({ email: 'john.doe@example.com', password: '' })).resolves.toBeNull();
  });

  it('is absent without customer_logins.csv, and a row naming an unknown customer fails loading', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'proto-logins-'));
    try {
      expect(customerLogins(dir, new Map())).toBeUndefined();
      writeFileSync(join(dir, 'customer_logins.csv'), `customer_id,password_hash\ncust_9,${await hashPassword('x')}\n`);
      expect(() => customerLogins(dir, new Map([['cust_1', 'a@example.com']]))).toThrow(/customer "cust_9" is not in customers.csv/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
