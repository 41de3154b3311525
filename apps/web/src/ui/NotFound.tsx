import { Link } from "react-router";
import { useDocumentTitle } from "../lib/hooks.ts";
import { ButtonLink } from "./Button.tsx";

/** The 404 screen, for unknown paths and for ids or slugs the API does not know. */
export function NotFoundContent({
  title = "This page isn't showing",
  message = "The page you asked for doesn't exist or has moved. The show goes on elsewhere:",
}: {
  title?: string;
  message?: string;
}) {
  useDocumentTitle("Page not found");
  return (
    <section className="container section not-found" data-testid="not-found">
      <p className="not-found-code" aria-hidden="true">
        404
      </p>
      <h1>{title}</h1>
      <p className="muted">{message}</p>
      <div className="not-found-actions">
        <ButtonLink to="/marketplace">Browse the marketplace</ButtonLink>
        <ButtonLink to="/collections" variant="secondary">
          See collections
        </ButtonLink>
      </div>
      <p className="muted not-found-help">
        Think something is missing? <Link to="/contact">Tell us</Link>.
      </p>
    </section>
  );
}
