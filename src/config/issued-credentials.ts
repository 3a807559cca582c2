/**
 * Credentials the business issued to platforms with `npm run keys -- api-key ...` and
 * `npm run keys -- oauth-client ...`, kept per tenant in <configDir>/credentials/<tenant id>.json
 * beside the tenant files. API keys are stored as hashes (the key is shown once when it is
 * created); OAuth clients as the tenant file would hold them, their secret as a reference. Active
 * keys join the tenant's `auth.api_keys` and active clients its `identity_linking.clients`, so
 * they authenticate exactly as hand-configured ones do.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { compile } from '../../schemas/validator.js';
import { StringEnum } from '../../schemas/common.js';
import { ConfigError } from '../../adapters/kit/config-error.js';
import { CAPABILITY } from '../protocol/capability-registry.js';
import { SecretRef, type TenantConfig } from './tenant-schema.js';

const Issued = {
  created_at: Type.String({ format: 'date-time' }),
  revoked_at: Type.Optional(Type.String({ format: 'date-time' })),
};

const IssuedApiKey = Type.Object(
  {
    id: Type.String({ pattern: '^[0-9a-f]{8,32}$' }),
    name: Type.Optional(Type.String()),
    profile: Type.String({ format: 'uri' }),
    sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
    ...Issued,
  },
  { additionalProperties: false },
);
type IssuedApiKey = Static<typeof IssuedApiKey>;

/** A confidential platform's OAuth client (client credentials; authorization code with redirect URIs). */
export const IssuedOAuthClient = Type.Object(
  {
    client_id: Type.String({ pattern: '^[A-Za-z0-9._~:/-]{3,200}$' }),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    profile: Type.String({ format: 'uri' }),
    auth_method: StringEnum(['client_secret_basic', 'private_key_jwt']),
    client_secret: Type.Optional(SecretRef),
    jwks: Type.Optional(Type.Object({ keys: Type.Array(Type.Record(Type.String(), Type.Unknown()), { minItems: 1 }) })),
    jwks_uri: Type.Optional(Type.String({ format: 'uri', pattern: '^https://' })),
    redirect_uris: Type.Optional(Type.Array(Type.String({ format: 'uri' }), { minItems: 1 })),
    /** The secret file the tool generated (removed when the client is revoked). */
    generated_secret: Type.Optional(Type.Boolean()),
    ...Issued,
  },
  { additionalProperties: false },
);
export type IssuedOAuthClient = Static<typeof IssuedOAuthClient>;

export const IssuedCredentials = Type.Object(
  { api_keys: Type.Array(IssuedApiKey), oauth_clients: Type.Optional(Type.Array(IssuedOAuthClient)) },
  { additionalProperties: false },
);
export type IssuedCredentials = Static<typeof IssuedCredentials>;

const validate = compile<IssuedCredentials>(IssuedCredentials);

const credentialsFile = (configDir: string, tenantId: string) => join(configDir, 'credentials', `${tenantId}.json`);

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

/** The tenant configuration with its active issued keys and OAuth clients added. */
export function withIssuedCredentials(config: TenantConfig, configDir: string): TenantConfig {
  const issued = readIssuedCredentials(configDir, config.id);
  const keys = issued.api_keys.filter((key) => key.revoked_at === undefined);
  // Clients live in the tenant's authorization server, which exists only with identity linking.
  const linking = CAPABILITY.identityLinking in config.capabilities;
  const clients = linking ? (issued.oauth_clients ?? []).filter((client) => client.revoked_at === undefined) : [];
  let merged = config;
  if (keys.length > 0) {
    const entries = keys.map((key) => ({ sha256: key.sha256, profile: key.profile, ...(key.name !== undefined && { name: key.name }) }));
    merged = { ...merged, auth: { ...merged.auth, api_keys: [...(merged.auth?.api_keys ?? []), ...entries] } };
  }
  if (clients.length > 0) {
    const entries = clients.map(({ created_at: _c, revoked_at: _r, generated_secret: _g, ...client }) => client);
    const linkingConfig = merged.identity_linking ?? {};
    merged = { ...merged, identity_linking: { ...linkingConfig, clients: [...(linkingConfig.clients ?? []), ...entries] } };
  }
  return merged;
}
