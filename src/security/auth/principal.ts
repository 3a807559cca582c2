/** Who is calling, as established by authentication (spec part 1 §5, part 2 §4.1 access table). */

export type AuthMechanism = 'api_key' | 'oauth' | 'signature' | 'mtls';

export type Principal =
  | { kind: 'anonymous' }
  /** The platform itself: API key, client-credentials token, its own signature or client certificate. */
  | { kind: 'platform'; profileUrl: string; via: AuthMechanism }
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

/** Profile URLs compare as parsed URLs, so case in the host or a default port does not matter. */
export function sameProfile(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return false;
  }
}

const canonical = (url: string) => (URL.canParse(url) ? new URL(url).href : url);

/**
 * Who owns what a call creates or remembers, as one string: the platform that authenticated, the
 * buyer who linked through it, or, for a caller that proved nothing, the profile it merely names.
 * Each kind is its own namespace, so an unauthenticated caller naming a platform's profile URL
 * never owns what that platform authenticated for.
 */
export function ownerKey(principal: Principal, profileUrl: string): string {
  switch (principal.kind) {
    case 'platform':
      return `platform ${canonical(principal.profileUrl)}`;
    case 'buyer':
      return `buyer ${canonical(principal.profileUrl)} ${principal.buyerId}`;
    case 'anonymous':
      return `claim ${canonical(profileUrl)}`;
  }
}
