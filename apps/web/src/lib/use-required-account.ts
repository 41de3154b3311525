import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useLocation, useNavigate } from "react-router";
import { fetchCurrentUser, sessionQueryKey } from "./session.ts";
import { useToast } from "../ui/Toast.tsx";
import type { AccountUser } from "../features/auth/api.ts";
import { saveCurrentUrl } from "./safe-next.ts";

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
    user: (query.data ?? null) as AccountUser | null,
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
