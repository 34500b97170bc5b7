// The console as a browser without JavaScript uses it: log in with the admin token, keep the
// cookies, read each form's CSRF token and hidden fields from the page, post forms back. For
// tests of the console's HTTP routes (real session and CSRF) without starting Chromium.
import { ADMIN_TOKEN } from './engine-harness';

export interface ConsolePage {
  status: number;
  location: string | null;
  html: string;
}

export interface ConsoleClient {
  get(path: string): Promise<ConsolePage>;
  /** Posts a form: `fields` plus the CSRF token of the last page read; repeated names as arrays. */
  post(path: string, fields: Record<string, string | string[]>): Promise<ConsolePage>;
}

/** The hidden inputs of the first form posting to `action` in `html`, as the browser would send them. */
export function formFields(html: string, action: string): Record<string, string | string[]> {
  // Mustache escapes the slashes of an action written from a view value.
  const raw = html.indexOf(`action="${action}"`);
  const start = raw >= 0 ? raw : html.indexOf(`action="${action.replace(/\//g, '&#x2F;')}"`);
  if (start < 0) throw new Error(`no form posting to ${action}`);
  const form = html.slice(start, html.indexOf('</form>', start));
  const fields: Record<string, string | string[]> = {};
  for (const m of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    const [name, value] = [m[1], decode(m[2])];
    const before = fields[name];
    fields[name] = before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value];
  }
  return fields;
}

function decode(text: string): string {
  return text
    .replace(/&#x3D;/g, '=')
    .replace(/&#x2F;/g, '/')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#x60;/g, '`')
    .replace(/&amp;/g, '&');
}

/** Logs in with the admin token (a string) or a local account's email and password. */
export async function consoleLogIn(
  engineUrl: string,
  credential: string | { email: string; password: string } = ADMIN_TOKEN,
): Promise<ConsoleClient> {
  const jar = new Map<string, string>();
  let csrf = '';
  const send = async (path: string, method: string, body?: URLSearchParams): Promise<ConsolePage> => {
    const res = await fetch(engineUrl + path, {
      method,
      redirect: 'manual',
      headers: {
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
        origin: engineUrl,
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body,
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair.indexOf('=');
      jar.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    const html = await res.text();
    const token = /name="_csrf" value="([^"]+)"/.exec(html);
    if (token) csrf = decode(token[1]);
    return { status: res.status, location: res.headers.get('location'), html };
  };
  const form = (fields: Record<string, string | string[]>) => {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(fields))
      for (const x of Array.isArray(v) ? v : [v]) params.append(k, x);
    return params;
  };
  const login = await send(
    '/console/login',
    'POST',
    form(typeof credential === 'string' ? { token: credential } : credential),
  );
  if (login.status !== 303) throw new Error(`console login refused: ${login.status}`);
  return {
    get: (path) => send(path, 'GET'),
    post: (path, fields) => send(path, 'POST', form({ ...fields, _csrf: csrf })),
  };
}
