import type { ReactNode } from "react";
import { ButtonLink } from "./Button.tsx";
import { EmptyState } from "./EmptyState.tsx";

/** The 403 page: signed in, but not allowed here. */
export function Forbidden({
  children = "The studio console is for Diginoor's team and its partner studios.",
  backTo = "/",
  backLabel = "Back to the home page",
}: {
  children?: ReactNode;
  backTo?: string;
  backLabel?: string;
}) {
  return (
    <div className="container section" style={{ maxWidth: 640, textAlign: "center" }}>
      <p className="eyebrow">Error 403</p>
      <EmptyState
        title="You don't have access to this page"
        action={
          <ButtonLink to={backTo} variant="primary">
            {backLabel}
          </ButtonLink>
        }
      >
        {children}
      </EmptyState>
    </div>
  );
}
