/**
 * Where to send a user after signing in. Only same-site relative paths are accepted: a single
 * leading "/", no "//" or "/\" (protocol-relative URLs), no control characters or backslashes.
 * The path is checked again after the URL parser has resolved dot segments ("/.//host" and
 * "/%2e//host" become "//host") and after percent-decoding ("/%2F%2Fhost"), so what is returned can
 * never be read as another host. Auth pages themselves are refused so that a bad `next` cannot
 * create a redirect loop.
 */
const AUTH_PAGES = new Set(["/login", "/signup", "/resetpass", "/verify-email"]);

export function safeNextPath(raw: string | null | undefined): string | null {
  if (!raw || raw.length > 2048) return null;
  if (unsafePath(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw, "https://same-site.invalid");
  } catch {
    return null;
  }
  if (url.origin !== "https://same-site.invalid") return null;
  if (unsafePath(url.pathname) || unsafeDecoded(url.pathname)) return null;
  if (AUTH_PAGES.has(url.pathname.toLowerCase())) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Not a single-slash path, or holds a backslash or a control character. */
function unsafePath(path: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  return !path.startsWith("/") || path.startsWith("//") || /[\u0000-\u001f\u007f\\]/.test(path);
}

/** Whether percent-decoding (once, twice, …) turns the path into an unsafe one ("/%2F%2Fhost"). */
function unsafeDecoded(path: string): boolean {
  let current = path;
  for (let i = 0; i < 4; i++) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(current);
    } catch {
      return true; // a malformed escape: not a path we made
    }
    if (decoded === current) return false;
    if (unsafePath(decoded)) return true;
    current = decoded;
  }
  return true; // encoded four times over: refused rather than followed
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
