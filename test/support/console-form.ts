/** A signed-out visitor of the console: the pre-session cookie and the sign-in form's CSRF token. */
export interface ConsoleVisitor {
  readonly cookie: string;
  readonly csrf: string;
}

export async function visitSignIn(baseUrl: string): Promise<ConsoleVisitor> {
  const response = await fetch(`${baseUrl}/console/signin`, { redirect: 'manual' });
  const html = await response.text();
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const csrf = /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
  if (!csrf) throw new Error(`no CSRF token on the sign-in page (${response.status})`);
  return { cookie, csrf };
}

export async function postSignIn(baseUrl: string, visitor: ConsoleVisitor, email: string, password: string) {
  const response = await fetch(`${baseUrl}/console/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: visitor.cookie },
    body: new URLSearchParams({ _csrf: visitor.csrf, email, password }).toString(),
    redirect: 'manual',
  });
  return { status: response.status, headers: response.headers, html: await response.text() };
}
