import { useLocation } from "react-router";
import { ButtonLink } from "./Button.tsx";
import { EmptyState } from "./EmptyState.tsx";

/** Shown when the session ends while a signed-in page is open. */
export function SignedOut({ what = "your profile" }: { what?: string }) {
  const location = useLocation();
  const next = encodeURIComponent(`${location.pathname}${location.search}`);
  return (
    <EmptyState
      title="You are signed out"
      action={
        <ButtonLink to={`/login?next=${next}`} variant="primary">
          Sign in
        </ButtonLink>
      }
    >
      Sign in again to see {what}.
    </EmptyState>
  );
}
