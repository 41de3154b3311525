import { useEffect, useState, useSyncExternalStore } from "react";
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

/** True while the media query matches. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

export const usePrefersReducedMotion = () => useMediaQuery("(prefers-reduced-motion: reduce)");
/** Desktop per the spec: 1024 px and wider. */
export const useIsDesktop = () => useMediaQuery("(min-width: 1024px)");

/** Sets the document title for a page ("X · Diginoor"). */
export function useDocumentTitle(title: string | null | undefined) {
  useEffect(() => {
    if (title) document.title = `${title} · Diginoor`;
  }, [title]);
}
