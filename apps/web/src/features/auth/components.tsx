import { authMessages } from "@diginoor/api/auth";
import { useMutation, useQuery } from "@tanstack/react-query";
import { type ReactNode, useEffect, useRef } from "react";
import { Link } from "react-router";
import { useToast } from "../../ui/Toast.tsx";
import { messageOf } from "../../lib/api.ts";
import { fetchProviders, providersQueryKey, resendVerification } from "./api.ts";
import "../../ui/form.css";
import "./auth.css";

/** The centred card every accounts page sits in; `onClose` shows the close icon to home. */
export function AuthCard({
  eyebrow,
  title,
  lead,
  closeToHome = false,
  children,
}: {
  eyebrow?: string;
  title: string;
  lead?: ReactNode;
  closeToHome?: boolean;
  children: ReactNode;
}) {
  // After a client-side navigation, move focus to the page's heading so screen readers announce the
  // new page and Tab starts from the form (not from wherever the old page left it).
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    headingRef.current?.focus({ preventScroll: true });
  }, []);
  return (
    <div className="auth-page">
      <section className="auth-card" aria-labelledby="auth-title">
        {closeToHome ? (
          <Link to="/" className="auth-card__close" aria-label="Close and go to the home page">
            <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
              <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </Link>
        ) : null}
        {eyebrow ? <p className="auth-card__eyebrow">{eyebrow}</p> : null}
        <h1 className="auth-card__title" id="auth-title" tabIndex={-1} ref={headingRef}>
          {title}
        </h1>
        {lead ? <p className="auth-card__lead">{lead}</p> : null}
        {children}
      </section>
    </div>
  );
}

/** Whether Google sign-in is configured on the server (the button is hidden otherwise). */
export function useProviders() {
  return useQuery({
    queryKey: providersQueryKey,
    queryFn: ({ signal }) => fetchProviders(signal),
    staleTime: 5 * 60_000,
    retry: false,
  });
}

/** "Continue with Google": a plain link, since the start of the OpenID Connect flow is a GET redirect. */
export function GoogleSignIn({
  next,
  label = "Continue with Google",
}: {
  next?: string | null;
  label?: string;
}) {
  const providers = useProviders();
  if (!providers.data?.google) return null;
  const href = `/api/v1/auth/google/start${next ? `?next=${encodeURIComponent(next)}` : ""}`;
  return (
    <>
      <a className="auth-google" href={href}>
        <svg width="18" height="18" viewBox="0 0 48 48" aria-hidden="true" focusable="false">
          <path
            fill="#FFC107"
            d="M43.6 20.5H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 12.9 4 4 12.9 4 24s8.9 20 20 20 20-8.9 20-20c0-1.3-.1-2.4-.4-3.5z"
          />
          <path
            fill="#FF3D00"
            d="M6.3 14.7l6.6 4.8C14.7 15.1 19 12 24 12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7z"
          />
          <path
            fill="#4CAF50"
            d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-7.9l-6.5 5C9.5 39.6 16.2 44 24 44z"
          />
          <path
            fill="#1976D2"
            d="M43.6 20.5H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C37 39.2 44 34 44 24c0-1.3-.1-2.4-.4-3.5z"
          />
        </svg>
        {label}
      </a>
      <p className="auth-divider">or</p>
    </>
  );
}

/** Asks for a new email verification link and toasts the outcome. */
export function useResendVerification() {
  const toast = useToast();
  return useMutation({
    mutationFn: resendVerification,
    onSuccess: () => toast.success(authMessages.verificationSent),
    onError: (err) => toast.error(messageOf(err, authMessages.verificationSendFailed)),
  });
}
