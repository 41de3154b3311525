import { isRouteErrorResponse, Link, useRouteError } from "react-router";
import { Footer } from "./Footer.tsx";
import { Header } from "./Header.tsx";

/** Last-resort error screen for a page that crashed (or a chunk that failed to load after a deploy). */
export function RouteError() {
  const error = useRouteError();
  const chunkFailed =
    error instanceof TypeError && /dynamically imported module|Importing a module/i.test(error.message);
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : chunkFailed
      ? "A new version of Diginoor is available. Reload to continue."
      : "Something went wrong while showing this page.";
  return (
    <>
      <Header />
      <main id="main" className="container section">
        <div className="state state-error" role="alert">
          <h1>We hit a snag</h1>
          <p>{message}</p>
          <p>
            <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
              Reload
            </button>{" "}
            <Link className="btn btn-secondary" to="/">
              Go home
            </Link>
          </p>
        </div>
      </main>
      <Footer />
    </>
  );
}
