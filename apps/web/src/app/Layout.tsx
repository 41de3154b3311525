import { Suspense } from "react";
import { Outlet, ScrollRestoration, useNavigation } from "react-router";
import { useLiveEvents } from "../lib/live-events.ts";
import { Footer } from "./Footer.tsx";
import { Header } from "./Header.tsx";

/** The shell around every page: skip link, header, page, footer. */
export function Layout() {
  const navigation = useNavigation();
  useLiveEvents();
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Header />
      <div
        className={`route-progress${navigation.state === "loading" ? " is-loading" : ""}`}
        aria-hidden="true"
      />
      <main id="main" tabIndex={-1}>
        <Suspense fallback={<PageFallback />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
      <ScrollRestoration />
    </>
  );
}

export function PageFallback() {
  return (
    <div className="page-fallback" aria-busy="true">
      <span className="spinner" aria-hidden="true" />
      <span className="visually-hidden">Loading page</span>
    </div>
  );
}
