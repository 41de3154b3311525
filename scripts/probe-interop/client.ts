// The interop probe's HTTP client: its own cookie jar and client address (the server runs with
// TRUST_PROXY=loopback and reads X-Forwarded-For), and a fan signed up the way the web app does it.

export interface Check {
  area: string;
  probe: string;
  expected: string;
  observed: string;
  ok: boolean;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: answers of every shape are probed
  json: any;
}

export interface Client {
  ip: string;
  cookie(): string;
  headers(extra?: Record<string, string>): Record<string, string>;
  req(method: string, url: string, body?: unknown, extra?: Record<string, string>): Promise<Answer>;
}

export function client(base: string, n: number): Client {
  const ip = `198.18.7.${n}`;
  const jar = new Map<string, string>();
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const headers = (extra: Record<string, string> = {}) => ({
    "x-forwarded-for": ip,
    origin: base,
    ...(jar.size ? { cookie: cookie() } : {}),
    ...extra,
  });
  async function req(method: string, url: string, body?: unknown, extra: Record<string, string> = {}) {
    const res = await fetch(base + url, {
      method,
      headers: headers(body === undefined ? extra : { "content-type": "application/json", ...extra }),
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      redirect: "manual",
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair = ""] = c.split(";");
      const i = pair.indexOf("=");
      jar.set(pair.slice(0, i), pair.slice(i + 1));
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {}
    return { status: res.status, headers: res.headers, text, json };
  }
  return { ip, cookie, headers, req };
}

async function mailedLink(base: string, email: string, part: string): Promise<URL> {
  for (let i = 0; i < 200; i++) {
    const box = (await (await fetch(`${base}/dev/mailbox/api`)).json()) as {
      messages: { to: string; links: string[] }[];
    };
    const link = box.messages.find((m) => m.to.includes(email))?.links.find((l) => l.includes(part));
    if (link) return new URL(link);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail to ${email} with ${part}`);
}

/** A fan who signed up, verified the address from the mailed link and signed in. */
export async function signedUpFan(base: string, n: number, name: string): Promise<Client> {
  const c = client(base, n);
  const email = `interop-${n}-${Date.now()}@example.com`;
  const password = "interop-password-9";
  const up = await c.req("POST", "/api/v1/auth/signup", { name, email, password, confirmPassword: password });
  if (up.status !== 201) throw new Error(`signup: ${up.status} ${up.text}`);
  const token = (await mailedLink(base, email, "verify-email")).searchParams.get("token");
  await c.req("POST", "/api/v1/auth/verify-email", { token });
  const login = await c.req("POST", "/api/v1/auth/login", { email, password });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${login.text}`);
  return c;
}
