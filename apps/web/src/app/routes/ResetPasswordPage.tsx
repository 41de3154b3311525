import { authMessages, passwordResetConfirmSchema, passwordResetRequestSchema } from "@diginoor/api/auth";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { ApiError, messageOf, serverFieldErrors } from "../../lib/api.ts";
import {
  applyServerErrors,
  confirmPasswordCheck,
  fieldProps,
  hasMessages,
  schemaResolver,
  useAppForm,
} from "../../lib/form.ts";
import { sessionQueryKey, useCurrentUser } from "../../lib/session.ts";
import { Button } from "../../ui/Button.tsx";
import { useToast } from "../../ui/Toast.tsx";
import { confirmPasswordReset, requestPasswordReset } from "../../features/auth/api.ts";
import { EmailField, Notice, PasswordFields } from "../../ui/form.tsx";
import { AuthCard } from "../../features/auth/components.tsx";

export function Component() {
  const [params] = useSearchParams();
  const token = params.get("token");
  useEffect(() => {
    document.title = "Reset password · Diginoor";
  }, []);
  return token ? <ChooseNewPassword token={token} /> : <RequestResetLink />;
}

/** Step 1: ask for a reset link by email. Signed-in users have nothing to reset here and go home. */
function RequestResetLink() {
  const navigate = useNavigate();
  const toast = useToast();
  const { user, isLoading } = useCurrentUser();
  const form = useAppForm({
    defaultValues: { email: "" },
    resolver: schemaResolver(passwordResetRequestSchema),
  });
  const [sentTo, setSentTo] = useState<string | null>(null);
  const sentRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!isLoading && user) navigate("/", { replace: true });
  }, [isLoading, user, navigate]);

  useEffect(() => {
    if (sentTo) sentRef.current?.focus();
  }, [sentTo]);

  const request = useMutation({
    mutationFn: requestPasswordReset,
    onSuccess: (_body, sent) => {
      toast.success(authMessages.resetSent);
      setSentTo(sent);
    },
    onError: (err) => {
      if (hasMessages(applyServerErrors(form, err))) return;
      toast.error(messageOf(err, "Something went wrong. Please try again"));
    },
  });

  const onSubmit = form.handleSubmit(({ email }) => {
    setSentTo(null);
    request.mutate(email.trim());
  });

  return (
    <AuthCard
      eyebrow="Locked out?"
      title="Reset your password"
      lead="Enter the email you signed up with and we will send you a link to choose a new password."
      closeToHome
    >
      {sentTo ? (
        <Notice ref={sentRef} tone="success">
          <p>{authMessages.resetSent}.</p>
          <p>
            If an account uses <strong>{sentTo}</strong>, a link to choose a new password is on its way. It
            expires soon and works once.
          </p>
        </Notice>
      ) : null}
      <form className="auth-form" noValidate onSubmit={onSubmit} aria-label="Request a reset link">
        <EmailField {...fieldProps(form, "email")} />
        <div className="auth-form__actions">
          <Button type="submit" block size="lg" loading={request.isPending}>
            SEND RESET LINK
          </Button>
        </div>
      </form>
      <p className="auth-footer">
        Remembered it?{" "}
        <Link to="/login" className="auth-link">
          Sign in
        </Link>
      </p>
    </AuthCard>
  );
}

/** Step 2 (from the emailed link): choose a new password; every session of the account ends. */
function ChooseNewPassword({ token }: { token: string }) {
  const navigate = useNavigate();
  const toast = useToast();
  const queryClient = useQueryClient();
  const form = useAppForm({
    defaultValues: { password: "", confirmPassword: "" },
    resolver: schemaResolver(passwordResetConfirmSchema, {
      prepare: (values) => ({ token, ...values }),
      check: confirmPasswordCheck(authMessages.confirmMismatch),
    }),
  });
  const [linkProblem, setLinkProblem] = useState<string | null>(null);
  const problemRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (linkProblem) problemRef.current?.focus();
  }, [linkProblem]);

  const confirm = useMutation({
    mutationFn: confirmPasswordReset,
    onSuccess: () => {
      queryClient.setQueryData(sessionQueryKey, null);
      toast.success("Password changed. Sign in with your new password.");
      navigate("/login", { replace: true });
    },
    onError: (err) => {
      if (err instanceof ApiError && err.code === "invalid_token") {
        setLinkProblem(err.message || authMessages.invalidToken);
        return;
      }
      const fields = serverFieldErrors(err);
      if (fields.token) {
        setLinkProblem(fields.token);
        return;
      }
      if (hasMessages(applyServerErrors(form, err))) return;
      toast.error(messageOf(err, "Something went wrong. Please try again"));
    },
  });

  const onSubmit = form.handleSubmit(
    (values) => confirm.mutate({ token, ...values }),
    // A bad token is the link's problem, not a field's.
    (errors) => {
      const tokenError = (errors as { token?: { message?: string } }).token?.message;
      if (tokenError) {
        form.clearErrors();
        setLinkProblem(tokenError);
      }
    },
  );

  return (
    <AuthCard eyebrow="Reset password" title="Choose a new password" closeToHome>
      {linkProblem ? (
        <Notice ref={problemRef} tone="error">
          <p>{linkProblem}</p>
          <p>
            <Link to="/resetpass" className="auth-link">
              Ask for a new reset link
            </Link>
          </p>
        </Notice>
      ) : null}
      <form className="auth-form" noValidate onSubmit={onSubmit} aria-label="Choose a new password">
        <PasswordFields
          password={fieldProps(form, "password")}
          confirmPassword={fieldProps(form, "confirmPassword")}
        />
        <div className="auth-form__actions">
          <Button type="submit" block size="lg" loading={confirm.isPending}>
            SAVE NEW PASSWORD
          </Button>
        </div>
      </form>
    </AuthCard>
  );
}
