import { authMessages, resendVerificationRequestSchema } from "@diginoor/api/auth";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { Link, useSearchParams } from "react-router";
import { sessionQueryKey } from "../../lib/session.ts";
import { ButtonLink, Button } from "../../ui/Button.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { messageOf } from "../../lib/api.ts";
import { fieldProps, schemaResolver, useAppForm } from "../../lib/form.ts";
import { verifyEmail } from "../../features/auth/api.ts";
import { EmailField, Notice } from "../../ui/form.tsx";
import { AuthCard, useResendVerification } from "../../features/auth/components.tsx";

export function Component() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const queryClient = useQueryClient();

  useEffect(() => {
    document.title = "Verify email · Diginoor";
  }, []);

  // A token works once: a query (deduplicated, never retried, kept for the page's life) makes sure
  // re-renders and React's development double effects send it only once.
  const verification = useQuery({
    queryKey: ["auth", "verify-email", token],
    queryFn: () => verifyEmail(token),
    enabled: token !== "",
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

  // The address may belong to the signed-in user (an email change): refresh the header's view.
  const verified = verification.isSuccess;
  useEffect(() => {
    if (verified) void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
  }, [verified, queryClient]);

  const headingRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (verification.isSuccess || verification.isError) headingRef.current?.focus();
  }, [verification.isSuccess, verification.isError]);

  if (!token) {
    return (
      <AuthCard eyebrow="Verify email" title="This link is incomplete">
        <Notice ref={headingRef} tone="error">
          <p>{authMessages.invalidToken}. Ask for a new link below.</p>
        </Notice>
        <ResendForm />
      </AuthCard>
    );
  }

  if (verification.isPending) {
    return (
      <AuthCard eyebrow="Verify email" title="Verifying your email">
        <div className="auth-status">
          <Spinner label="Verifying your email" />
          <p className="auth-card__lead">One moment…</p>
        </div>
      </AuthCard>
    );
  }

  if (verification.isSuccess) {
    return (
      <AuthCard eyebrow="All set" title="Email verified">
        <Notice ref={headingRef} tone="success">
          <p>
            <strong>{verification.data.user.email}</strong> is verified. Welcome to Diginoor,{" "}
            {verification.data.user.name}.
          </p>
        </Notice>
        <ButtonLink to="/login" block size="lg">
          Sign in
        </ButtonLink>
      </AuthCard>
    );
  }

  return (
    <AuthCard eyebrow="Verify email" title="We couldn't verify this link">
      <Notice ref={headingRef} tone="error">
        <p>{messageOf(verification.error, authMessages.invalidToken)}</p>
        <p>Links work once and expire. Enter your email to get a new one.</p>
      </Notice>
      <ResendForm />
    </AuthCard>
  );
}

function ResendForm() {
  const form = useAppForm({
    defaultValues: { email: "" },
    resolver: schemaResolver(resendVerificationRequestSchema),
  });
  const resend = useResendVerification();
  const onSubmit = form.handleSubmit(({ email }) => resend.mutate(email.trim()));

  return (
    <>
      <form className="auth-form" noValidate onSubmit={onSubmit} aria-label="Send a new verification link">
        <EmailField {...fieldProps(form, "email")} />
        <div className="auth-form__actions">
          <Button type="submit" block loading={resend.isPending}>
            Send a new link
          </Button>
        </div>
      </form>
      <p className="auth-footer">
        <Link to="/login" className="auth-link">
          Back to sign in
        </Link>
      </p>
    </>
  );
}
