import { type ReactNode, useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * `fallback` on the server and while a server-rendered page hydrates, `children` from then on
 * (decision 033): for lazily loaded browser-only code (the wallet's chunks), which the server's
 * render cannot wait for. Pages the browser renders itself show `children` at once.
 */
export function ClientOnly({ children, fallback }: { children: ReactNode; fallback: ReactNode }) {
  const inBrowser = useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
  return inBrowser ? children : fallback;
}
