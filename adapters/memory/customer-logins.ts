/**
 * The demo store's customer accounts (identity linking): `customer_logins.csv` in the data folder
 * gives some customers of customers.csv a password, kept as a scrypt hash
 * (`scrypt$<salt>$<hash>`, base64url). The demo passwords are documented in config/demo/SOURCE.md.
 */
import { existsSync } from 'node:fs';
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Type, type Static } from '@sinclair/typebox';
import type { AuthenticatedCustomer, CustomerCredentials } from '../contract.js';
import { ConfigError } from '../kit/config-error.js';
import { readValidated } from './data/read-file.js';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, length: number) => Promise<Buffer>;
const HASH = /^scrypt\$([A-Za-z0-9_-]{16,})\$([A-Za-z0-9_-]{43})$/;
const KEY_LENGTH = 32;

const LoginRow = Type.Object({ customer_id: Type.String({ minLength: 1 }), password_hash: Type.String({ pattern: HASH.source }) });
type LoginRow = Static<typeof LoginRow>;

export async function hashPassword(password: string, salt = randomBytes(16)): Promise<string> {
  return `scrypt$${salt.toString('base64url')}$${(await scryptAsync(password, salt, KEY_LENGTH)).toString('base64url')}`;
}

/** An unknown email costs the same scrypt as a wrong password, so timing does not reveal accounts. */
const DECOY = { customerId: '', salt: randomBytes(16), hash: randomBytes(KEY_LENGTH) };

export type CustomerLogin = (credentials: CustomerCredentials) => Promise<AuthenticatedCustomer | null>;

/** The login of the store's customers, or undefined when the data folder has no customer_logins.csv. */
export function customerLogins(dataDir: string, customerEmails: ReadonlyMap<string, string>): CustomerLogin | undefined {
  const file = join(dataDir, 'customer_logins.csv');
  if (!existsSync(file)) return undefined;
  const byEmail = new Map<string, { customerId: string; salt: Buffer; hash: Buffer }>();
  for (const [i, row] of readValidated<LoginRow[]>(file, Type.Array(LoginRow)).entries()) {
    const email = customerEmails.get(row.customer_id);
    if (email === undefined) throw new ConfigError(`${file}: row ${i + 2}: customer "${row.customer_id}" is not in customers.csv`);
    const [, salt, hash] = HASH.exec(row.password_hash)!;
    byEmail.set(email, { customerId: row.customer_id, salt: Buffer.from(salt!, 'base64url'), hash: Buffer.from(hash!, 'base64url') });
  }
  return async ({ email, password }) => {
    const account = byEmail.get(email.trim().toLowerCase());
    const entry = account ?? DECOY;
    const presented = await scryptAsync(password, entry.salt, KEY_LENGTH);
    const matches = timingSafeEqual(presented, entry.hash);
    return account && matches ? { customerId: account.customerId, email: email.trim().toLowerCase() } : null;
  };
}
