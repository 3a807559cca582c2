/**
 * OAuth 2.0 bearer tokens (spec part 1 §5): JWTs verified with jose against the tenant's
 * issuer, audience and JWKS. A client-credentials token (sub = client) is the platform itself;
 * any other subject is a buyer who linked their identity, with the token's scopes. Either way
 * the token's client must map to a platform profile, so a token cannot be replayed by another
 * platform.
 */
import { createLocalJWKSet, createRemoteJWKSet, errors, jwtVerify, type JSONWebKeySet, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { TenantAuth } from '../../config/tenant-schema.js';
import { authorizationServerUnavailable, invalidCredentials, unknownClient } from '../errors.js';
import type { Principal } from './principal.js';

export type OAuthConfig = NonNullable<TenantAuth['oauth']>;
export type Authenticated = Exclude<Principal, { kind: 'anonymous' }>;

const DEFAULT_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'ES384', 'EdDSA'];

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

function scopesOf(payload: JWTPayload): string[] {
  const scp = payload.scp;
  if (Array.isArray(scp)) return scp.filter((s): s is string => typeof s === 'string');
  const spaced = text(payload.scope) ?? text(scp);
  return spaced ? spaced.split(' ').filter(Boolean) : [];
}

const isHttpsUrl = (value: string) => {
  try {
    return new URL(value).protocol === 'https:';
  } catch {
    return false;
  }
};

const invalidToken = (why: string) => invalidCredentials(why, { 'www-authenticate': 'Bearer error="invalid_token"' });

/** jose's verdict as the error a caller sees; its messages name claims, never the token. */
function rejection(error: unknown): Error {
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid || !(error instanceof errors.JOSEError)) {
    return authorizationServerUnavailable();
  }
  if (error instanceof errors.JWTExpired) return invalidToken('the bearer token has expired');
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return invalidToken('the bearer token was not issued for this business (aud)');
    if (error.claim === 'iss') return invalidToken('the bearer token comes from another issuer (iss)');
    return invalidToken(`the bearer token's ${error.claim} claim is not valid`);
  }
  return invalidToken("the bearer token is not a valid token of this business's authorization server");
}

export class BearerTokens {
  private readonly keys: JWTVerifyGetKey;

  constructor(private readonly config: OAuthConfig) {
    this.keys = config.jwks_url ? createRemoteJWKSet(new URL(config.jwks_url)) : createLocalJWKSet(config.jwks as unknown as JSONWebKeySet);
  }

  async authenticate(token: string, now: number): Promise<Authenticated> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.keys, {
        issuer: this.config.issuer,
        audience: this.config.audience,
        algorithms: this.config.algorithms ?? DEFAULT_ALGORITHMS,
        currentDate: new Date(now),
        clockTolerance: this.config.clock_tolerance_seconds ?? 30,
      }));
    } catch (error) {
      throw rejection(error);
    }
    const subject = text(payload.sub);
    const clientId = text(payload.client_id) ?? text(payload.azp) ?? subject;
    const profileUrl =
      clientId === undefined ? undefined : (this.config.clients?.[clientId] ?? (isHttpsUrl(clientId) ? clientId : undefined));
    if (profileUrl === undefined) throw unknownClient();
    if (subject === undefined || subject === clientId) return { kind: 'platform', profileUrl, via: 'oauth' };
    return { kind: 'buyer', buyerId: subject, scopes: scopesOf(payload), profileUrl };
  }
}
