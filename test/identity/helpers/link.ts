/**
 * A platform linking a buyer through the gateway's authorization server, in-process (app.inject):
 * the authorization request, the login page, the consent, the redirect, the token request. Cookies
 * are carried like a browser's (paths ignored: the flow never sends one to the wrong place).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

export const pkcePair = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

export class Browser {
  private readonly cookies = new Map<string, string>();
  constructor(private readonly app: FastifyInstance) {}

  async request(method: 'GET' | 'POST', url: string, form?: Record<string, string>): Promise<LightMyRequestResponse> {
    const res = await this.app.inject({
      method,
      url,
      headers: {
        host: 'shop.example',
        ...(this.cookies.size > 0 && { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') }),
        ...(form && { 'content-type': 'application/x-www-form-urlencoded' }),
      },
      ...(form && { payload: new URLSearchParams(form).toString() }),
    });
    const set = res.headers['set-cookie'];
    for (const line of Array.isArray(set) ? set : set ? [set] : []) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }
}

/** The path and query of a Location the gateway answered (absolute, on the tenant's base URL). */
export const pathOf = (location: string) => {
  const url = new URL(location, 'https://shop.example');
  return url.pathname + url.search;
};

export interface AuthorizeParams {
  clientId: string;
  redirectUri: string;
  scope: string;
  challenge?: string;
  method?: string;
  state?: string;
}

export const authorizeUrl = (p: AuthorizeParams) =>
  '/oauth2/authorize?' +
  new URLSearchParams({
    response_type: 'code',
    client_id: p.clientId,
    redirect_uri: p.redirectUri,
    scope: p.scope,
    state: p.state ?? 'st-1',
    ...(p.challenge !== undefined && { code_challenge: p.challenge, code_challenge_method: p.method ?? 'S256' }),
  }).toString();

export interface LinkResult {
  /** The final redirect to the platform. */
  redirect: URL;
  code: string;
  verifier: string;
}

/** The buyer signs in and allows (in `browser`, which keeps the session); returns the authorization response the platform receives. */
export async function linkBuyer(
  app: FastifyInstance,
  p: Omit<AuthorizeParams, 'challenge'> & { email: string; password: string },
  browser = new Browser(app),
): Promise<LinkResult> {
  const { verifier, challenge } = pkcePair();
  const start = await browser.request('GET', authorizeUrl({ ...p, challenge }));
  if (start.statusCode !== 303) throw new Error(`authorize answered ${start.statusCode}: ${start.body}`);
  const login = pathOf(start.headers.location as string);
  const page = await browser.request('GET', login);
  if (page.statusCode !== 200) throw new Error(`login page answered ${page.statusCode}: ${page.body}`);
  const posted = await browser.request('POST', login, { email: p.email, password: p.password, action: 'allow' });
  if (posted.statusCode !== 303) throw new Error(`login answered ${posted.statusCode}: ${posted.body}`);
  const resumed = await browser.request('GET', pathOf(posted.headers.location as string));
  if (resumed.statusCode !== 303) throw new Error(`resume answered ${resumed.statusCode}: ${resumed.body}`);
  if (!/^https?:/.test(String(resumed.headers.location))) throw new Error(`resume went to ${String(resumed.headers.location)}`);
  const redirect = new URL(resumed.headers.location as string);
  return { redirect, code: redirect.searchParams.get('code') ?? '', verifier };
}

export async function tokenRequest(app: FastifyInstance, form: Record<string, string>, authorization?: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/oauth2/token',
    headers: { host: 'shop.example', 'content-type': 'application/x-www-form-urlencoded', ...(authorization && { authorization }) },
    payload: new URLSearchParams(form).toString(),
  });
  return { status: res.statusCode, body: res.json<Record<string, string>>() };
}
