/**
 * Who may act in the console: an operator who signed in with their token (a signed, HttpOnly,
 * SameSite=Strict session cookie, 12 hours) and sends the session's CSRF token with each form, or
 * a script sending `Authorization: Bearer <token>` (no cookie, so nothing for another site to
 * ride on). Tokens are compared by their SHA-256 digests in constant time. The signing key is the
 * process's own: sessions end with it, and each replica's console is its own listener anyway.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OperatorToken } from '../../config/operator-tokens.js';

const SESSION_COOKIE = 'console_session';
const SESSION_MS = 12 * 3_600_000;

const digest = (text: string) => createHash('sha256').update(text).digest();

export interface Session {
  operator: string;
  csrf: string;
}

export class OperatorAuth {
  private readonly key = randomBytes(32);
  private readonly digests: Array<{ name: string; digest: Buffer }>;

  constructor(tokens: readonly OperatorToken[]) {
    this.digests = tokens.map(({ name, token }) => ({ name, digest: digest(token) }));
  }

  /** Actions are possible at all: some token is configured. */
  get enabled(): boolean {
    return this.digests.length > 0;
  }

  /** The operator this token is, if any (every entry is compared, whichever matches). */
  operatorOf(token: string): string | undefined {
    const offered = digest(token);
    let found: string | undefined;
    for (const { name, digest: known } of this.digests) if (timingSafeEqual(offered, known)) found ??= name;
    return found;
  }

  private mac(text: string): string {
    return createHmac('sha256', this.key).update(text).digest('base64url');
  }

  startSession(reply: FastifyReply, operator: string): void {
    const value = `${Buffer.from(operator).toString('base64url')}.${Date.now() + SESSION_MS}`;
    reply.setCookie(SESSION_COOKIE, `${value}.${this.mac(value)}`, { path: '/console', httpOnly: true, sameSite: 'strict' });
  }

  endSession(reply: FastifyReply): void {
    reply.clearCookie(SESSION_COOKIE, { path: '/console' });
  }

  /** The signed-in session of this request, if its cookie is ours and unexpired. */
  session(req: FastifyRequest): Session | undefined {
    const cookie = req.cookies[SESSION_COOKIE];
    const match = cookie && /^([A-Za-z0-9_-]+)\.(\d+)\.([A-Za-z0-9_-]+)$/.exec(cookie);
    if (!match) return undefined;
    const [, name, expiry, mac] = match as unknown as [string, string, string, string];
    const expected = Buffer.from(this.mac(`${name}.${expiry}`));
    if (expected.length !== mac.length || !timingSafeEqual(expected, Buffer.from(mac))) return undefined;
    if (Number(expiry) < Date.now()) return undefined;
    return { operator: Buffer.from(name, 'base64url').toString('utf8'), csrf: this.mac(`csrf:${cookie}`) };
  }

  /**
   * Who performs this action: the bearer token's operator, or the session's when the form carries
   * its CSRF token. Undefined: refused.
   */
  actor(req: FastifyRequest): string | undefined {
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (bearer !== undefined) return this.operatorOf(bearer);
    const session = this.session(req);
    const sent = (req.body as Record<string, unknown> | undefined)?.csrf;
    if (!session || typeof sent !== 'string' || sent.length !== session.csrf.length) return undefined;
    return timingSafeEqual(Buffer.from(sent), Buffer.from(session.csrf)) ? session.operator : undefined;
  }
}
