/**
 * The optional `authenticateCustomer` (identity linking) against the real Medusa server: a customer
 * registers on the store the way a Medusa storefront registers one (emailpass register, then the
 * customer created with that token); the adapter logs in with the email and password and gets
 * the store's customer id and the account's email; a wrong password or an unknown email is null.
 */
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MedusaAdapter } from '../../../adapters/medusa/index.js';
import { medusaAdapter, medusaStore } from '../../helpers/medusa-store.js';

const store = medusaStore();
const suite = store ? describe : describe.skip;

suite("Medusa's emailpass customer login", () => {
  const email = `buyer-${randomBytes(4).toString('hex')}@example.com`;
  const password = `pw-${randomBytes(8).toString('hex')}`;
  let adapter: MedusaAdapter;
  let customerId: string;

  beforeAll(async () => {
    adapter = await medusaAdapter(store!);
    const post = async (path: string, body: unknown, token?: string) => {
      const response = await fetch(store!.url + path, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-publishable-api-key': store!.seed.publishableKey,
          ...(token && { authorization: `Bearer ${token}` }),
        },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      return response.json() as Promise<any>;
    };
    const { token } = await post('/auth/customer/emailpass/register', { email, password });
    customerId = (await post('/store/customers', { email, first_name: 'Ann', last_name: 'Lee' }, token)).customer.id;
  });

  it("answers the store's customer id and the account's email for the right password", async () => {
    expect(await adapter.authenticateCustomer({ email, password })).toEqual({ customerId, email });
  });

  it('answers null for a wrong password or an unknown email, never an error', async () => {
    expect(await adapter.authenticateCustomer({ email, password: `${password}x` })).toBeNull();
    expect(await adapter.authenticateCustomer({ email: `nobody-${email}`, password })).toBeNull();
  });
});
