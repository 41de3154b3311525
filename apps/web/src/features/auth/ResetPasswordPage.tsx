import { authMessages, passwordResetConfirmSchema, passwordResetRequestSchema } from "@diginoor/api/auth";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { ApiError } from "../../lib/api.ts";
import { sessionQueryKey, useCurrentUser } from "../../lib/session.ts";
import { Button } from "../../ui/Button.tsx";
import { useToast } from "../../ui/Toast.tsx";
import { confirmPasswordReset, messageOf, requestPasswordReset, serverFieldErrors } from "./api.ts";
import { AuthCard, EmailField, Notice, PasswordFields } from "./components.tsx";
import { type FieldErrors, fieldErrors, focusFirstError, hasErrors, withConfirmCheck } from "./validation.ts";

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
  const [email, setEmail] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [sentTo, setSentTo] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
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
      const fields = serverFieldErrors(err);
      if (hasErrors(fields)) {
        setErrors(fields);
        focusFirstError(formRef.current, fields);
        return;
      }
      toast.error(messageOf(err, "Something went wrong. Please try again"));
    },
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = fieldErrors(passwordResetRequestSchema, { email });
    setErrors(found);
    if (hasErrors(found)) {
      focusFirstError(formRef.current, found);
      return;
    }
    setSentTo(null);
    request.mutate(email.trim());
  }

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
      <form
        ref={formRef}
        className="auth-form"
        noValidate
        onSubmit={onSubmit}
        aria-label="Request a reset link"
      >
        <EmailField value={email} onChange={(e) => setEmail(e.target.value)} error={errors.email} />
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
  const [values, setValues] = useState({ password: "", confirmPassword: "" });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [linkProblem, setLinkProblem] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
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
      if (hasErrors(fields)) {
        setErrors(fields);
        focusFirstError(formRef.current, fields);
        return;
      }
      toast.error(messageOf(err, "Something went wrong. Please try again"));
    },
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = { token, ...values };
    const found = withConfirmCheck(fieldErrors(passwordResetConfirmSchema, body), values);
    if (found.token) {
      setLinkProblem(found.token);
      return;
    }
    setErrors(found);
    if (hasErrors(found)) {
      focusFirstError(formRef.current, found);
      return;
    }
    confirm.mutate(body);
  }

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
      <form
        ref={formRef}
        className="auth-form"
        noValidate
        onSubmit={onSubmit}
        aria-label="Choose a new password"
      >
        <PasswordFields
          values={values}
          errors={errors}
          onChange={(field, value) => setValues((v) => ({ ...v, [field]: value }))}
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
