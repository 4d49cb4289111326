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

/** A cookie jar just big enough for the console's cookies, and its forms' hidden tokens. */
export class ConsoleBrowser {
  readonly cookies = new Map<string, string>();
  constructor(private readonly baseUrl: string) {}

  async go(method: string, path: string, form?: Record<string, string>) {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      redirect: 'manual',
      headers: {
        cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    for (const c of response.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const at = pair.indexOf('=');
      if (/;\s*Max-Age=0/i.test(c)) this.cookies.delete(pair.slice(0, at));
      else this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return {
      status: response.status,
      location: response.headers.get('location'),
      headers: response.headers,
      html: await response.text(),
    };
  }

  /** A multipart form with one file, as a browser uploads it. */
  async upload(path: string, fields: Record<string, string>, file: { field: string; name: string; content: string }) {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append(file.field, new Blob([file.content], { type: 'text/csv' }), file.name);
    const response = await fetch(`${this.baseUrl}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
      body: form,
    });
    return { status: response.status, location: response.headers.get('location'), html: await response.text() };
  }

  async csrf(path: string): Promise<string> {
    return (await this.formTokens(path))._csrf;
  }

  /** The hidden `_csrf` and (on forms that act) `_once` fields of the page's first form. */
  async formTokens(path: string): Promise<{ _csrf: string; _once?: string }> {
    const page = await this.go('GET', path);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.html)?.[1];
    if (!csrf) throw new Error(`no CSRF token on ${path} (${page.status})`);
    const once = /name="_once" value="([^"]+)"/.exec(page.html)?.[1];
    return once ? { _csrf: csrf, _once: once } : { _csrf: csrf };
  }

  /** Signs in through the form; throws unless it is accepted. */
  async signIn(email: string, password: string): Promise<void> {
    const answer = await this.go('POST', '/console/signin', {
      _csrf: await this.csrf('/console/signin'),
      email,
      password,
    });
    if (answer.status !== 303) throw new Error(`sign-in refused (${answer.status})`);
  }
}

/** The hidden fields of Send to many's preview Send form, as the browser posts them back. */
export function previewSendForm(html: string): Record<string, string> {
  const form = /<form method="post" action="\/console\/send-many"[\s\S]*?<\/form>/.exec(html)?.[0];
  if (!form) throw new Error(`no send form on the preview:\n${html.slice(0, 2000)}`);
  const fields: Record<string, string> = {};
  for (const [, name, value] of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[name] = value
      .replace(/&#10;/g, '\n')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  }
  return fields;
}
