import type { User } from "@diginoor/api/auth";
import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useEffect, useRef } from "react";
import { useLocation, useNavigate } from "react-router";
import { ErrorState } from "../ui/ErrorState.tsx";
import { Forbidden } from "../ui/Forbidden.tsx";
import { SignedOut } from "../ui/SignedOut.tsx";
import { Skeleton } from "../ui/Skeleton.tsx";
import { useToast } from "../ui/Toast.tsx";
import { saveCurrentUrl } from "./safe-next.ts";
import { fetchCurrentUser, sessionQueryKey } from "./session.ts";

/**
 * The signed-in user module of the web app: one `User` type (packages/api's), the hook and the two
 * gates (`RequireAccount`, `RequireAdmin`) the route modules under app/routes/ wrap their pages in.
 * Only lazy route chunks import this file; the header reads the session through lib/session.ts.
 */
export type { User };

export type RequiredAccount = ReturnType<typeof useRequiredAccount>;

/**
 * The signed-in user for a page that needs one. Visitors are told 'Please Login to Continue' and sent
 * to /login; the page they wanted is kept (as `next` and as the saved current URL) so sign-in brings
 * them back. Uses the same query as the header, so both always agree.
 */
export function useRequiredAccount() {
  const query = useQuery({
    queryKey: sessionQueryKey,
    queryFn: ({ signal }) => fetchCurrentUser(signal),
    retry: false,
    staleTime: 60_000,
  });
  const navigate = useNavigate();
  const location = useLocation();
  const toast = useToast();
  const leaving = useRef(false);
  // Someone who was signed in on this page and no longer is (signed out from the header, or in
  // another tab) is not a visitor to be warned: the header takes them home, or the page says so.
  const hadUser = useRef(false);
  if (query.data) hadUser.current = true;

  const signedOut = query.isSuccess && query.data === null;
  useEffect(() => {
    if (!signedOut || leaving.current || hadUser.current) return;
    leaving.current = true;
    const here = `${location.pathname}${location.search}${location.hash}`;
    saveCurrentUrl(here);
    toast.warning("Please Login to Continue");
    navigate(`/login?next=${encodeURIComponent(here)}`, { replace: true });
  }, [signedOut, location, navigate, toast]);

  return {
    user: (query.data ?? null) as User | null,
    isLoading: query.isPending,
    error: query.error,
    refetch: query.refetch,
    isRefetching: query.isRefetching,
    /** True when the session ended while this page was open. */
    signedOutHere: signedOut && hadUser.current,
    /** Call before deliberately signing the user out, so no 'Please Login' redirect follows. */
    markLeaving: () => {
      leaving.current = true;
    },
  };
}

export interface RequireAccountProps {
  /** What the page shows, for the signed-out message: 'Sign in again to see {what}'. */
  what?: string;
  /** Shown while the session loads (and while the visitor is being sent to /login). */
  loading?: ReactNode;
  /** Title of the error state when the session cannot be read. */
  errorTitle?: string;
  /** Wraps the signed-out, default loading and error states in the page's own frame. */
  frame?: (state: ReactNode) => ReactNode;
  children: (user: User, account: RequiredAccount) => ReactNode;
}

const unframed = (state: ReactNode) => state;

/**
 * Renders `children(user)` for a signed-in user. Visitors get the 'Please Login to Continue' toast and
 * go to /login?next=…; a session that ends while the page is open shows 'You are signed out'; a
 * session that cannot be read shows an error with Retry.
 */
export function RequireAccount({
  what,
  loading,
  errorTitle = "We couldn't load your account",
  frame = unframed,
  children,
}: RequireAccountProps) {
  const account = useRequiredAccount();
  if (account.signedOutHere) return frame(<SignedOut what={what} />);
  if (account.isLoading || (!account.user && !account.error)) {
    return (
      loading ??
      frame(
        <div aria-busy="true">
          <Skeleton height="3rem" />
          <Skeleton height="20rem" />
        </div>,
      )
    );
  }
  if (!account.user) {
    return frame(
      <ErrorState
        title={errorTitle}
        error={account.error}
        onRetry={() => account.refetch()}
        retrying={account.isRefetching}
      />,
    );
  }
  return children(account.user, account);
}

/**
 * `RequireAccount` for staff pages: users whose role is not in `roles` see the 403 page (`forbidden`).
 * The server checks every call again; this only decides what the page shows.
 */
export function RequireAdmin({
  roles = ["admin"],
  forbidden = <Forbidden />,
  ...gate
}: RequireAccountProps & { roles?: User["role"][]; forbidden?: ReactNode }) {
  return (
    <RequireAccount {...gate}>
      {(user, account) => (roles.includes(user.role) ? gate.children(user, account) : forbidden)}
    </RequireAccount>
  );
}
