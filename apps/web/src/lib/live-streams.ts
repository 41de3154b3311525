import { useEffect, useSyncExternalStore } from "react";

/**
 * The page's Server-Sent Events streams and whether each is open (lib/live-events.ts applies their
 * events). Queries a stream keeps fresh take `useLiveFallback()` as their refetchInterval.
 */
export type LiveStream = "user" | "market";

/** How often a page polls what a stream keeps fresh while that stream is down. */
export const FALLBACK_POLL_MS = 30_000;

/**
 * A diagnostic switch: `localStorage["diginoor.polling"] = "off"` turns the fallback polling off, so
 * pages change only by events (the browser test e2e/live-events.spec.ts proves they do).
 */
export const POLLING_SWITCH = "diginoor.polling";

const open: Record<LiveStream, boolean> = { user: false, market: false };
/** Mounted components that need the market stream. */
let marketWatchers = 0;
const listeners = new Set<() => void>();
const notify = () => {
  for (const l of listeners) l();
};
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
function setOpen(stream: LiveStream, value: boolean) {
  if (open[stream] === value) return;
  open[stream] = value;
  notify();
}

function pollingOff(): boolean {
  try {
    return typeof window !== "undefined" && window.localStorage.getItem(POLLING_SWITCH) === "off";
  } catch {
    return false; // storage refused (privacy settings)
  }
}

/** `ms` as a refetchInterval for what no event announces (a chain's blocks), or false when polling is off. */
export function pollEvery(ms: number): number | false {
  return pollingOff() ? false : ms;
}

/**
 * The refetchInterval of a query `stream` keeps fresh: false while the stream is open, FALLBACK_POLL_MS
 * while it is down. A component using the market stream keeps it open while it is mounted.
 */
export function useLiveFallback(stream: LiveStream): number | false {
  const connected = useSyncExternalStore(
    subscribe,
    () => open[stream],
    () => false,
  );
  useEffect(() => {
    if (stream !== "market") return;
    marketWatchers++;
    notify();
    return () => {
      marketWatchers--;
      notify();
    };
  }, [stream]);
  return connected || pollingOff() ? false : FALLBACK_POLL_MS;
}

/** The user stream of this page, if open (closeLiveEvents ends it). */
let userSource: EventSource | null = null;

/**
 * Closes the page's user event stream now. Signing out calls it before its request: a stream still
 * connecting would otherwise reach the server after the session ended and be answered 401.
 */
export function closeLiveEvents(): void {
  userSource?.close();
  userSource = null;
  setOpen("user", false);
}

/**
 * Opens `url` as an EventSource and keeps it open: `open` follows its state; a stream the server
 * refused (429, 401: the browser gives up) is tried again after FALLBACK_POLL_MS. After a reconnect
 * without replay (no id received yet, or a stream without ids) `missed` is called.
 */
export function follow(
  url: string,
  stream: LiveStream,
  /** Adds the listeners of the stream's event types. */
  listen: (source: EventSource, onEvent: (e: MessageEvent<string>) => void) => void,
  missed: () => void,
): () => void {
  let source: EventSource | null = null;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const start = () => {
    let opened = false;
    let gotId = false;
    const s = new EventSource(url);
    source = s;
    if (stream === "user") userSource = s;
    s.onopen = () => {
      if (opened && !gotId) missed();
      opened = true;
      setOpen(stream, true);
    };
    s.onerror = () => {
      setOpen(stream, false);
      if (s.readyState !== EventSource.CLOSED || stopped) return;
      // Refused (not a dropped connection, which the browser retries itself): try later.
      retry = setTimeout(() => {
        if (!stopped && source === s) start();
      }, FALLBACK_POLL_MS);
    };
    listen(s, (e) => {
      if (e.lastEventId) gotId = true;
    });
  };
  start();
  return () => {
    stopped = true;
    clearTimeout(retry);
    source?.close();
    if (stream === "user" && userSource === source) userSource = null;
    setOpen(stream, false);
  };
}

/** True while a mounted component needs the market stream (useLiveFallback("market")). */
export function useMarketWanted(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => marketWatchers > 0,
    () => false,
  );
}
