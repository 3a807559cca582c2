/**
 * The business's own authorization server as caller authentication sees it (src/identity builds
 * it): opaque tokens it looks up, and the Bearer challenges naming it (RFC 6750 §3, RFC 9728,
 * upstream identity-linking.md "Error Handling").
 */
import { identityRequired, insufficientScope } from '../errors.js';
import type { Principal } from './principal.js';

export type IssuedPrincipal = Exclude<Principal, { kind: 'anonymous' }>;

export interface OwnAuthorizationServer {
  /** The issuer URI, byte-identical to its metadata's `issuer`: the challenges' realm. */
  readonly issuer: string;
  /** The protected resource (this tenant's base URL). */
  readonly resource: string;
  /** The holder of a token this server issued, or undefined (unknown, expired, revoked, another audience). */
  principalOf(token: string): Promise<IssuedPrincipal | undefined>;
}

const quoted = (value: string) => `"${value.replace(/["\\]/g, '')}"`;

/** RFC 9728 §3.1: the resource's path goes after the well-known name (`/.well-known/oauth-protected-resource/t/acme`). */
export function protectedResourceMetadataUrl(resource: string): string {
  const url = new URL(resource);
  return `${url.origin}/.well-known/oauth-protected-resource${url.pathname.replace(/\/$/, '')}`;
}

export function bearerChallenge(server: OwnAuthorizationServer, params: Record<string, string> = {}): string {
  const all = { realm: server.issuer, ...params, resource_metadata: protectedResourceMetadataUrl(server.resource) };
  return `Bearer ${Object.entries(all)
    .map(([name, value]) => `${name}=${quoted(value)}`)
    .join(', ')}`;
}

export const buyerIdentityRequired = (server: OwnAuthorizationServer, why: string) => identityRequired(why, bearerChallenge(server));

export const invalidBuyerToken = (server: OwnAuthorizationServer, why: string) =>
  identityRequired(why, bearerChallenge(server, { error: 'invalid_token', error_description: why }));

export const missingScope = (server: OwnAuthorizationServer, scope: string) =>
  insufficientScope(scope, bearerChallenge(server, { error: 'insufficient_scope', scope }));
