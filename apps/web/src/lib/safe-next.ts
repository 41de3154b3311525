/**
 * Where to send a user after signing in. Only same-site relative paths are accepted: a single
 * leading "/", no "//" or "/\" (protocol-relative URLs), no control characters or backslashes.
 * Auth pages themselves are refused so that a bad `next` cannot create a redirect loop.
 */
const AUTH_PAGES = new Set(["/login", "/signup", "/resetpass", "/verify-email"]);

export function safeNextPath(raw: string | null | undefined): string | null {
  if (!raw || raw.length > 2048) return null;
  if (!raw.startsWith("/") || raw.startsWith("//")) return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  if (/[\u0000-\u001f\u007f\\]/.test(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw, "https://same-site.invalid");
  } catch {
    return null;
  }
  if (url.origin !== "https://same-site.invalid") return null;
  if (AUTH_PAGES.has(url.pathname.toLowerCase())) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Storage key of the page a protected page redirected from (the spec's "current URL"). */
export const CURRENT_URL_KEY = "currentUrl";

function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.sessionStorage;
  } catch {
    return null; // storage can be disabled by the browser
  }
}

export function saveCurrentUrl(path: string): void {
  const safe = safeNextPath(path);
  if (safe) storage()?.setItem(CURRENT_URL_KEY, safe);
}

/** Reads and forgets the saved current URL (only a safe path is ever returned). */
export function takeSavedCurrentUrl(): string | null {
  const s = storage();
  if (!s) return null;
  const value = s.getItem(CURRENT_URL_KEY);
  s.removeItem(CURRENT_URL_KEY);
  return safeNextPath(value);
}

/** Destination after sign-in: `?next=`, else the saved current URL, else home. */
export function destinationAfterSignIn(nextParam: string | null): string {
  const saved = takeSavedCurrentUrl();
  return safeNextPath(nextParam) ?? saved ?? "/";
}
