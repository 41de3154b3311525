import { authMessages, signupRequestSchema } from "@diginoor/api/auth";
import { useMutation } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { ApiError, messageOf } from "../../lib/api.ts";
import {
  applyServerErrors,
  confirmPasswordCheck,
  fieldProps,
  hasMessages,
  schemaResolver,
  useAppForm,
} from "../../lib/form.ts";
import { useCurrentUser } from "../../lib/session.ts";
import { Button } from "../../ui/Button.tsx";
import { TextField } from "../../ui/TextField.tsx";
import { useToast } from "../../ui/Toast.tsx";
import { signUp } from "../../features/auth/api.ts";
import { EmailField, Notice, PasswordFields, PhoneField } from "../../ui/form.tsx";
import { AuthCard, GoogleSignIn } from "../../features/auth/components.tsx";
import { destinationAfterSignIn, safeNextPath } from "../../lib/safe-next.ts";

/** The spec's delay between a successful sign-up and the sign-in page. */
const REDIRECT_MS = 5000;

const EMPTY = { name: "", phone: "", email: "", password: "", confirmPassword: "" };
type Values = typeof EMPTY;

/** The request body of the form's values: an empty phone is left out. */
const toBody = (values: Values) => ({
  ...values,
  phone: values.phone.trim() === "" ? undefined : values.phone,
});

export function Component() {
  const [params] = useSearchParams();
  const next = safeNextPath(params.get("next"));
  const navigate = useNavigate();
  const toast = useToast();
  const { user, isLoading } = useCurrentUser();

  const form = useAppForm<Values>({
    defaultValues: EMPTY,
    resolver: schemaResolver(signupRequestSchema, {
      prepare: toBody,
      check: confirmPasswordCheck(authMessages.confirmMismatch),
    }),
  });
  const [sentTo, setSentTo] = useState<string | null>(null);
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
      const taken = err instanceof ApiError && err.code === "email_taken";
      if (hasMessages(applyServerErrors(form, err, { extra: taken ? { email: err.message } : {} }))) {
        if (taken) toast.error(err.message);
        return;
      }
      toast.error(messageOf(err, authMessages.signupFailed));
    },
  });

  const onSubmit = form.handleSubmit((values) =>
    signup.mutate({ ...toBody(values), name: values.name.trim(), email: values.email.trim() }),
  );

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
      <form className="auth-form" noValidate onSubmit={onSubmit} aria-label="Sign up">
        <TextField label="Name" autoComplete="name" required {...fieldProps(form, "name")} />
        <PhoneField
          hint="Optional, with the country code, like +919876543210"
          {...fieldProps(form, "phone")}
        />
        <EmailField {...fieldProps(form, "email")} />
        <PasswordFields
          passwordLabel="Password"
          password={fieldProps(form, "password")}
          confirmPassword={fieldProps(form, "confirmPassword")}
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
