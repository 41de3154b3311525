import { useLocation } from "react-router";
import { ButtonLink } from "../../ui/Button.tsx";
import { EmptyState } from "../../ui/EmptyState.tsx";

/** Shown when the session ends while a signed-in page is open. */
export function SignedOut() {
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
      Sign in again to see your profile.
    </EmptyState>
  );
}
