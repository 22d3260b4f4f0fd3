// A person's browser reduced to what the web's forms need, over fetch: a cookie jar, redirects seen (not followed), the
// authenticity token read from the last form, and browser-like headers (Sec-Fetch-Site, Origin) that a test may change.
export interface WebResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The Location of a redirect, '' otherwise. */
  location: string;
}

export class WebClient {
  readonly cookies = new Map<string, string>();
  /** The authenticity token of the last page that had a form. */
  token = '';

  constructor(readonly base: string) {}

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private remember(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  private async finish(res: Response): Promise<WebResponse> {
    this.remember(res);
    const text = await res.text();
    const m = /name="authenticity_token" value="([^"]*)"/.exec(text);
    if (m) this.token = m[1];
    return { status: res.status, headers: res.headers, text, location: res.headers.get('location') ?? '' };
  }

  async get(path: string, headers: Record<string, string> = {}): Promise<WebResponse> {
    const res = await fetch(new URL(path, this.base), {
      redirect: 'manual',
      headers: { accept: 'text/html', cookie: this.cookieHeader(), 'sec-fetch-site': 'none', ...headers },
    });
    return this.finish(res);
  }

  /** Posts a form as a browser on this site would: same-origin, the current token unless the fields name one. */
  async post(path: string, fields: Record<string, string | string[]>, headers: Record<string, string> = {}): Promise<WebResponse> {
    const form = new URLSearchParams();
    if (!('authenticity_token' in fields)) form.append('authenticity_token', this.token);
    for (const [k, v] of Object.entries(fields)) for (const one of Array.isArray(v) ? v : [v]) form.append(k, one);
    const res = await fetch(new URL(path, this.base), {
      method: 'POST',
      redirect: 'manual',
      headers: {
        accept: 'text/html',
        'content-type': 'application/x-www-form-urlencoded',
        cookie: this.cookieHeader(),
        origin: new URL(this.base).origin,
        'sec-fetch-site': 'same-origin',
        ...headers,
      },
      body: form.toString(),
    });
    return this.finish(res);
  }

  /**
   * Posts a multipart/form-data form (a file input's form) as a browser on this site would: the current token first
   * unless the fields name one, then the fields, then each file with its name and declared type.
   */
  async postMultipart(
    path: string,
    fields: Record<string, string>,
    files: Record<string, { name: string; type?: string; bytes: Uint8Array }> = {},
    headers: Record<string, string> = {},
  ): Promise<WebResponse> {
    const form = new FormData();
    if (!('authenticity_token' in fields)) form.append('authenticity_token', this.token);
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    for (const [k, f] of Object.entries(files)) {
      form.append(k, new Blob([new Uint8Array(f.bytes)], { type: f.type ?? 'application/octet-stream' }), f.name);
    }
    const res = await fetch(new URL(path, this.base), {
      method: 'POST',
      redirect: 'manual',
      headers: {
        accept: 'text/html',
        cookie: this.cookieHeader(),
        origin: new URL(this.base).origin,
        'sec-fetch-site': 'same-origin',
        ...headers,
      },
      body: form,
    });
    return this.finish(res);
  }

  /** Signs in with a password through /login and /session; returns the /session response (a 303 when it worked). */
  async signIn(login: string, password: string, returnTo?: string): Promise<WebResponse> {
    await this.get(returnTo ? `/login?return_to=${encodeURIComponent(returnTo)}` : '/login');
    return this.post('/session', { login, password, ...(returnTo ? { return_to: returnTo } : {}) });
  }
}

/** The hidden fields of a page's forms (their values unescaped), as a browser would post them. */
export function hiddenFields(text: string): Record<string, string> {
  const unescaped = (v: string) =>
    v
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) out[m[1]] = unescaped(m[2]);
  return out;
}
