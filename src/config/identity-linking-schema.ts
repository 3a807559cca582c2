/**
 * The tenant file's `identity_linking` section: the OAuth clients platforms use with the tenant's
 * authorization server, its token lifetimes, and the store's own OpenID Connect provider as a
 * login source (`federated`). Identity linking itself is switched on by listing
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
  /** A federated OpenID Connect login source: the buyer signs in at the store's own identity provider. */
  const Federated = Type.Object(
    {
      /** The provider's issuer (`iss` of its ID tokens). */
      issuer: Type.String({ format: 'uri', pattern: '^https?://', description: "the provider's issuer, as its ID tokens name it" }),
      /** Where its discovery document is, when not at `<issuer>/.well-known/openid-configuration` (Shopify: the shop's domain). */
      discovery_url: Type.Optional(
        Type.String({ format: 'uri', pattern: '^https?://', description: 'full URL of the discovery document when not under the issuer' }),
      ),
      client_id: Type.String({ minLength: 1, maxLength: 300 }),
      /** A confidential client's secret (client_secret_basic); without it the gateway is a public client (PKCE only). */
      client_secret: Type.Optional(secretRef),
      /** Requested scopes; `openid` is always sent. Default `openid email`. */
      scopes: Type.Optional(
        Type.Array(Type.String({ pattern: '^[\\x21\\x23-\\x5B\\x5D-\\x7E]+$' }), { minItems: 1, description: 'default [openid, email]' }),
      ),
      /** ID token claims naming the store's customer id (default `sub`) and email (default `email`, used only when verified). */
      claims: Type.Optional(
        Type.Object(
          {
            customer_id: Type.Optional(
              Type.String({ minLength: 1, description: "the claim carrying the store's customer id; default sub" }),
            ),
            email: Type.Optional(
              Type.String({ minLength: 1, description: 'the email claim, kept only when email_verified; default email' }),
            ),
          },
          { additionalProperties: false },
        ),
      ),
      /** The button's words: "Sign in with <label>"; default the tenant's name. */
      label: Type.Optional(Type.String({ minLength: 1, maxLength: 60, description: '"Sign in with <label>"; default the tenant name' })),
    },
    { additionalProperties: false },
  );
  return Type.Object(
    {
      clients: Type.Optional(Type.Array(OAuthClient)),
      federated: Type.Optional(Federated),
      dynamic_registration: Type.Optional(
        Type.Object(
          { initial_access_token: secretRef },
          {
            additionalProperties: false,
            description:
              'RFC 7591 registration at /oauth2/register, off unless set: ' +
              'platforms given this initial access token register themselves (with their profile)',
          },
        ),
      ),
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
