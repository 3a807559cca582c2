/**
 * Credentials the business issued to platforms with `npm run keys -- api-key ...`, kept per tenant
 * in <configDir>/credentials/<tenant id>.json beside the tenant files. Only hashes are stored: the
 * key is shown once when it is created. Active keys join the tenant's `auth.api_keys`, so they
 * authenticate exactly as a hand-configured hash does.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { compile } from '../../schemas/validator.js';
import { ConfigError } from '../../adapters/kit/config-error.js';
import type { TenantConfig } from './tenant-schema.js';

export const IssuedApiKey = Type.Object(
  {
    id: Type.String({ pattern: '^[0-9a-f]{8,32}$' }),
    name: Type.Optional(Type.String()),
    profile: Type.String({ format: 'uri' }),
    sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
    created_at: Type.String({ format: 'date-time' }),
    revoked_at: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { additionalProperties: false },
);
export type IssuedApiKey = Static<typeof IssuedApiKey>;

export const IssuedCredentials = Type.Object({ api_keys: Type.Array(IssuedApiKey) }, { additionalProperties: false });
export type IssuedCredentials = Static<typeof IssuedCredentials>;

const validate = compile<IssuedCredentials>(IssuedCredentials);

export const credentialsFile = (configDir: string, tenantId: string) => join(configDir, 'credentials', `${tenantId}.json`);

/** The tenant's issued credentials; none when the file does not exist. */
export function readIssuedCredentials(configDir: string, tenantId: string): IssuedCredentials {
  const file = credentialsFile(configDir, tenantId);
  if (!existsSync(file)) return { api_keys: [] };
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(`${file}: not valid JSON: ${(error as Error).message}`);
  }
  const result = validate(data);
  if (!result.ok) throw new ConfigError(`${file}: ${result.message}`);
  return result.value;
}

/** Written to a temporary file and renamed, so a reload never reads half a file. */
export function writeIssuedCredentials(configDir: string, tenantId: string, credentials: IssuedCredentials): string {
  const file = credentialsFile(configDir, tenantId);
  mkdirSync(join(configDir, 'credentials'), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, file);
  return file;
}

/** The tenant configuration with its active issued keys added to `auth.api_keys`. */
export function withIssuedCredentials(config: TenantConfig, configDir: string): TenantConfig {
  const active = readIssuedCredentials(configDir, config.id).api_keys.filter((key) => key.revoked_at === undefined);
  if (active.length === 0) return config;
  const issued = active.map((key) => ({ sha256: key.sha256, profile: key.profile, ...(key.name !== undefined && { name: key.name }) }));
  return { ...config, auth: { ...config.auth, api_keys: [...(config.auth?.api_keys ?? []), ...issued] } };
}
