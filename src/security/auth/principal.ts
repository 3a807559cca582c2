/** Who is calling, as established by authentication (spec part 1 §5, part 2 §4.1 access table). */

export type AuthMechanism = 'api_key' | 'oauth' | 'signature' | 'mtls';

export type Principal =
  | { kind: 'anonymous' }
  /**
   * The platform itself: API key, client-credentials token, client certificate, or a signature
   * with keys from its profile. `selfPublished`: proven only by keys from a profile the tenant
   * does not list (`auth.signatures.any_profile`): anyone who can host a profile can be one.
   */
  | { kind: 'platform'; profileUrl: string; via: AuthMechanism; selfPublished?: true }
  /** A buyer who linked their identity to the platform (authorization-code token). */
  | {
      kind: 'buyer';
      buyerId: string;
      scopes: readonly string[];
      profileUrl: string;
      /** The email the store verified when the buyer linked (the gateway's own authorization server). */
      email?: string;
    };

export const ANONYMOUS: Principal = { kind: 'anonymous' };

/** A profile URL in one spelling (case in the host or a default port does not matter); as it is when not a URL. */
export const canonicalProfile = (url: string): string => (URL.canParse(url) ? new URL(url).href : url);

/** Profile URLs compare as parsed URLs, so case in the host or a default port does not matter. */
export function sameProfile(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return false;
  }
}

/**
 * Who owns what a caller creates (carts, checkouts, idempotency records, page tokens):
 * `platform:<profile>` for a caller whose credentials prove the platform (a buyer's token proves
 * the platform it was issued to), `claim:<profile>` for one that proves nothing and only names the
 * profile. The two never match: naming a platform's profile URL never reaches what that platform
 * made while authenticated.
 */
export function ownerOf(principal: Principal, claimedProfile: string): string {
  if (principal.kind === 'anonymous') return `claim:${canonicalProfile(claimedProfile)}`;
  return `platform:${canonicalProfile(principal.profileUrl)}`;
}

/** The profile URL an owner (ownerOf) names. */
export const ownerProfile = (owner: string): string => owner.slice(owner.indexOf(':') + 1);
