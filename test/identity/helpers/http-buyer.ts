/**
 * A buyer in a browser without the browser, over real HTTP (fetch): opens the authorization URL,
 * signs in on the gateway's login page and allows (or cancels), and follows the redirect to the
 * platform's redirect URI. Cookies are kept like a browser's (paths ignored).
 */
export interface HttpBuyer {
  email: string;
  password: string;
  action?: 'allow' | 'deny';
}

export async function signInOverHttp(authorizationUrl: string, buyer: HttpBuyer): Promise<Response> {
  const cookies = new Map<string, string>();
  const go = async (url: string, form?: Record<string, string>) => {
    const response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        ...(cookies.size > 0 && { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') }),
        ...(form && { 'content-type': 'application/x-www-form-urlencoded' }),
      },
      ...(form && { body: new URLSearchParams(form).toString() }),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    return response;
  };
  const next = (response: Response, from: string) => {
    const location = response.headers.get('location');
    if (response.status !== 303 || !location) throw new Error(`${from} answered ${response.status}, not a redirect`);
    return new URL(location, from).href;
  };
  const login = next(await go(authorizationUrl), authorizationUrl);
  const page = await go(login);
  if (page.status !== 200) throw new Error(`the login page answered ${page.status}`);
  await page.text();
  const form = { email: buyer.email, password: buyer.password, action: buyer.action ?? 'allow' };
  const resume = next(await go(login, form), login);
  const back = next(await go(resume), resume);
  return go(back);
}
