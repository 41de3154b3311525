import { createContext, useContext, useEffect, useState, useSyncExternalStore } from "react";
import { type CountdownParts, countdownParts } from "./format.ts";

/** Live countdown to `endsAt`, ticking every second until it ends. */
export function useCountdown(endsAt: string | null): CountdownParts | null {
  const [now, setNow] = useState(() => Date.now());
  const parts = endsAt ? countdownParts(endsAt, now) : null;
  const running = parts !== null && !parts.ended;
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running]);
  return parts;
}

/** True while the media query matches; `serverValue` while a server-rendered page hydrates. */
export function useMediaQuery(query: string, serverValue = false): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    () => window.matchMedia(query).matches,
    () => serverValue,
  );
}

/**
 * The server's guess of the screen (from the User-Agent) for a page it rendered, written on <html
 * data-viewport>: the hydration renders what the server rendered, and the media query takes over.
 */
export const ServerViewportContext = createContext<"desktop" | "mobile">("mobile");

export const usePrefersReducedMotion = () => useMediaQuery("(prefers-reduced-motion: reduce)");
/** Desktop per the spec: 1024 px and wider. */
export const useIsDesktop = () =>
  useMediaQuery("(min-width: 1024px)", useContext(ServerViewportContext) === "desktop");

/** Sets the document title for a page ("X · Diginoor"). */
export function useDocumentTitle(title: string | null | undefined) {
  useEffect(() => {
    if (title) document.title = `${title} · Diginoor`;
  }, [title]);
}
