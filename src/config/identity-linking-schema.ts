/**
 * The tenant file's `identity_linking` section: the OAuth clients platforms use with the tenant's
 * authorization server and its token lifetimes. Identity linking itself is switched on by listing
 * `dev.proto.common.identity_linking` among the tenant's capabilities.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { StringEnum } from '../../schemas/common.js';

const RedirectUri = Type.String({ format: 'uri', description: 'exact match; for 127.0.0.1 / [::1] the port is ignored (RFC 8252 §7.3)' });

/** Built with the tenant schema's SecretRef (passed in: tenant-schema.ts imports this file). */
export const identityLinkingSchema = <Secret extends TSchema>(secretRef: Secret) => {
  const OAuthClient = Type.Object(
    {
      client_id: Type.String({ pattern: '^[A-Za-z0-9._~:/-]{3,200}$' }),
      /** The platform profile URL the client belongs to: its tokens are that platform. */
      profile: Type.String({ format: 'uri' }),
      /** `none`: a public agent client (PKCE S256); the other two: a confidential platform. */
      auth_method: Type.Optional(StringEnum(['none', 'private_key_jwt', 'client_secret_basic'])),
      redirect_uris: Type.Optional(Type.Array(RedirectUri, { minItems: 1 })),
      /** private_key_jwt: the platform's public keys, inline or where the platform publishes them. */
      jwks: Type.Optional(Type.Object({ keys: Type.Array(Type.Record(Type.String(), Type.Unknown()), { minItems: 1 }) })),
      jwks_uri: Type.Optional(Type.String({ format: 'uri', pattern: '^https://' })),
      /** client_secret_basic: a reference to the secret, never the secret. */
      client_secret: Type.Optional(secretRef),
      name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    },
    { additionalProperties: false },
  );
  return Type.Object(
    {
      clients: Type.Optional(Type.Array(OAuthClient)),
      /**
       * RFC 7591 dynamic client registration at /oauth2/register, off unless set: platforms the
       * business gave this initial access token register themselves (with their `profile`).
       */
      dynamic_registration: Type.Optional(Type.Object({ initial_access_token: secretRef }, { additionalProperties: false })),
      access_token_ttl_seconds: Type.Optional(Type.Integer({ minimum: 60, maximum: 86_400 })),
      refresh_token_ttl_seconds: Type.Optional(Type.Integer({ minimum: 3600, maximum: 31_536_000 })),
      /** Failed logins allowed per account and per client address in `window_seconds`. */
      login_attempts: Type.Optional(
        Type.Object(
          {
            per_account: Type.Integer({ minimum: 1 }),
            per_address: Type.Integer({ minimum: 1 }),
            window_seconds: Type.Integer({ minimum: 1 }),
          },
          { additionalProperties: false },
        ),
      ),
    },
    { additionalProperties: false },
  );
};
