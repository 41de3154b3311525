import { authMessages, signupRequestSchema } from "@diginoor/api/auth";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { ApiError } from "../../lib/api.ts";
import { useCurrentUser } from "../../lib/session.ts";
import { Button } from "../../ui/Button.tsx";
import { TextField } from "../../ui/TextField.tsx";
import { useToast } from "../../ui/Toast.tsx";
import { messageOf, serverFieldErrors, signUp } from "./api.ts";
import { AuthCard, EmailField, GoogleSignIn, Notice, PasswordFields } from "./components.tsx";
import { destinationAfterSignIn, safeNextPath } from "../../lib/safe-next.ts";
import { type FieldErrors, fieldErrors, focusFirstError, hasErrors, withConfirmCheck } from "./validation.ts";

/** The spec's delay between a successful sign-up and the sign-in page. */
const REDIRECT_MS = 5000;

const EMPTY = { name: "", phone: "", email: "", password: "", confirmPassword: "" };
type Values = typeof EMPTY;

export function Component() {
  const [params] = useSearchParams();
  const next = safeNextPath(params.get("next"));
  const navigate = useNavigate();
  const toast = useToast();
  const { user, isLoading } = useCurrentUser();

  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [sentTo, setSentTo] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const doneRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    document.title = "Sign up · Diginoor";
  }, []);

  useEffect(() => {
    if (!isLoading && user) navigate(destinationAfterSignIn(next), { replace: true });
  }, [isLoading, user, next, navigate]);

  const loginHref = next ? `/login?next=${encodeURIComponent(next)}` : "/login";

  // After success: the spec's two toasts, then the sign-in page 5 s later.
  useEffect(() => {
    if (!sentTo) return;
    // The form was scrolled; show the success card from the top, not under the sticky header.
    window.scrollTo({ top: 0 });
    doneRef.current?.focus({ preventScroll: true });
    const timer = setTimeout(() => navigate(loginHref), REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [sentTo, loginHref, navigate]);

  const signup = useMutation({
    mutationFn: signUp,
    onSuccess: ({ user: created, verificationEmailSent }) => {
      if (verificationEmailSent) toast.success(authMessages.verificationSent);
      else toast.error(authMessages.verificationSendFailed);
      toast.info(authMessages.redirectingToLogin);
      setSentTo(created.email);
    },
    onError: (err) => {
      const fields = serverFieldErrors(err);
      if (err instanceof ApiError && err.code === "email_taken") fields.email = err.message;
      if (hasErrors(fields)) {
        setErrors(fields);
        focusFirstError(formRef.current, fields);
        if (err instanceof ApiError && err.code === "email_taken") toast.error(err.message);
        return;
      }
      toast.error(messageOf(err, authMessages.signupFailed));
    },
  });

  function set<K extends keyof Values>(key: K) {
    return (e: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: e.target.value }));
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = { ...values, phone: values.phone.trim() === "" ? undefined : values.phone };
    const found = withConfirmCheck(fieldErrors(signupRequestSchema, body), values);
    setErrors(found);
    if (hasErrors(found)) {
      focusFirstError(formRef.current, found);
      return;
    }
    signup.mutate({ ...body, name: values.name.trim(), email: values.email.trim() });
  }

  if (sentTo) {
    return (
      <AuthCard eyebrow="Almost there" title="Check your inbox">
        <Notice ref={doneRef} tone="success">
          <p>
            We sent a verification link to <strong>{sentTo}</strong>. Open it to activate your account, then
            sign in.
          </p>
          <p>{authMessages.redirectingToLogin}…</p>
        </Notice>
        <p className="auth-footer">
          <Link to={loginHref} className="auth-link">
            Go to sign in now
          </Link>
        </p>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      eyebrow="Join the premiere"
      title="Create your account"
      lead="Collect licensed moments from the films and stars you love."
      closeToHome
    >
      <GoogleSignIn next={next} label="Sign up with Google" />
      <form ref={formRef} className="auth-form" noValidate onSubmit={onSubmit} aria-label="Sign up">
        <TextField
          label="Name"
          name="name"
          autoComplete="name"
          value={values.name}
          onChange={set("name")}
          error={errors.name}
          required
          maxLength={100}
        />
        <TextField
          label="Phone"
          name="phone"
          type="tel"
          autoComplete="tel"
          inputMode="tel"
          placeholder="Phone Number with country code"
          hint="Optional, with the country code, like +919876543210"
          value={values.phone}
          onChange={set("phone")}
          error={errors.phone}
        />
        <EmailField value={values.email} onChange={set("email")} error={errors.email} />
        <PasswordFields
          passwordLabel="Password"
          values={values}
          errors={errors}
          onChange={(field, value) => setValues((v) => ({ ...v, [field]: value }))}
        />
        <div className="auth-form__actions">
          <Button type="submit" block size="lg" loading={signup.isPending}>
            SIGN UP
          </Button>
        </div>
      </form>
      <p className="auth-footer">
        <Link to={loginHref} className="auth-link">
          Already have an account? Sign in
        </Link>
      </p>
    </AuthCard>
  );
}
