import { authMessages, loginRequestSchema } from "@diginoor/api/auth";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { ApiError, messageOf } from "../../lib/api.ts";
import { applyServerErrors, fieldProps, hasMessages, schemaResolver, useAppForm } from "../../lib/form.ts";
import { useNft } from "../../lib/catalogue/nft.ts";
import { sessionQueryKey, useCurrentUser } from "../../lib/session.ts";
import { Button } from "../../ui/Button.tsx";
import { TextField } from "../../ui/TextField.tsx";
import { useToast } from "../../ui/Toast.tsx";
import { signIn } from "../../features/auth/api.ts";
import { EmailField, Notice } from "../../ui/form.tsx";
import { AuthCard, GoogleSignIn, useResendVerification } from "../../features/auth/components.tsx";
import { destinationAfterSignIn, safeNextPath } from "../../lib/safe-next.ts";

/**
 * Why the visitor was sent here, when a buy or bid button sent them: 'Sign in to buy Kabali Da!'.
 * Only the intent comes from the URL; the title is the catalogue's, so a link cannot put its own
 * words on the sign-in page.
 */
function SignInReason({ intent, next }: { intent: string | null; next: string | null }) {
  const id =
    intent === "buy" || intent === "bid" ? /^\/nftdetail\/([^/?#]+)/.exec(next ?? "")?.[1] : undefined;
  const nft = useNft(id ? decodeURIComponent(id) : "", { enabled: Boolean(id) });
  if (!id) return null;
  const title = nft.data?.title ?? "this NFT";
  return (
    <Notice tone="info">
      <p>
        <strong>{intent === "bid" ? `Sign in to bid on ${title}` : `Sign in to buy ${title}`}</strong>
      </p>
      <p>You will come back to it as soon as you are signed in.</p>
    </Notice>
  );
}

type FormProblem = { kind: "unverified"; email: string } | { kind: "message"; text: string };

export function Component() {
  const [params] = useSearchParams();
  const nextParam = params.get("next");
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const toast = useToast();
  const { user, isLoading } = useCurrentUser();

  const form = useAppForm({
    defaultValues: { email: "", password: "" },
    resolver: schemaResolver(loginRequestSchema),
  });
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const noticeRef = useRef<HTMLDivElement>(null);
  const signingIn = useRef(false);

  useEffect(() => {
    document.title = "Sign in · Diginoor";
  }, []);

  // Someone already signed in has nothing to do here.
  useEffect(() => {
    if (!isLoading && user && !signingIn.current)
      navigate(destinationAfterSignIn(nextParam), { replace: true });
  }, [isLoading, user, nextParam, navigate]);

  // Back from a failed Google sign-in; the server adds a reason when it helps.
  const googleError = params.get("error") === "google" ? (params.get("reason") ?? "") : null;
  useEffect(() => {
    if (googleError !== null) toast.error(googleFailureMessage(googleError));
  }, [googleError, toast]);

  useEffect(() => {
    if (problem) noticeRef.current?.focus();
  }, [problem]);

  const login = useMutation({
    mutationFn: signIn,
    onMutate: () => {
      signingIn.current = true;
    },
    onSuccess: async ({ user: signedIn }) => {
      toast.dismissText(authMessages.loginRequired);
      queryClient.setQueryData(sessionQueryKey, signedIn);
      navigate(destinationAfterSignIn(nextParam), { replace: true });
      await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    },
    onError: (err, sent) => {
      signingIn.current = false;
      if (hasMessages(applyServerErrors(form, err))) return;
      if (err instanceof ApiError && err.code === "email_unverified") {
        setProblem({ kind: "unverified", email: sent.email });
        return;
      }
      setProblem({ kind: "message", text: messageOf(err, "Something went wrong. Please try again") });
    },
  });

  const resend = useResendVerification();

  const submit = form.handleSubmit(({ email, password }) => login.mutate({ email: email.trim(), password }));

  const next = safeNextPath(nextParam);
  const signupHref = next ? `/signup?next=${encodeURIComponent(next)}` : "/signup";

  return (
    <AuthCard eyebrow="Welcome back" title="Sign in" lead="Your collection, bids and showcase." closeToHome>
      <SignInReason intent={params.get("intent")} next={next} />
      <GoogleSignIn next={next} />
      {problem?.kind === "unverified" ? (
        <Notice ref={noticeRef} tone="warning">
          <p>{authMessages.emailUnverified}</p>
          <p>Open the link we emailed you, or ask for a new one.</p>
          <Button
            variant="secondary"
            size="sm"
            className="auth-notice__action"
            loading={resend.isPending}
            onClick={() => resend.mutate(problem.email)}
          >
            Send a new link
          </Button>
        </Notice>
      ) : problem ? (
        <Notice ref={noticeRef} tone="error">
          <p>{problem.text}</p>
        </Notice>
      ) : null}
      <form
        className="auth-form"
        noValidate
        onSubmit={(event) => {
          setProblem(null);
          return submit(event);
        }}
        aria-label="Sign in"
      >
        <EmailField {...fieldProps(form, "email")} />
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          required
          {...fieldProps(form, "password")}
        />
        <div className="auth-form__row">
          <Link to="/resetpass" className="auth-link auth-link--quiet">
            Forgot password?
          </Link>
        </div>
        <div className="auth-form__actions">
          <Button type="submit" block size="lg" loading={login.isPending}>
            SIGN IN
          </Button>
        </div>
      </form>
      <p className="auth-help">
        For your security, sign-in never says whether an email has an account: a wrong email and a wrong
        password both show “{authMessages.invalidCredentials}”. If you are not sure which email you used, ask
        for a reset link with “Forgot password?”; it is sent only if that account exists.
      </p>
      <p className="auth-footer">
        New to Diginoor?{" "}
        <Link to={signupHref} className="auth-link">
          Signup
        </Link>
      </p>
    </AuthCard>
  );
}

function googleFailureMessage(reason: string): string {
  switch (reason) {
    case "unverified_email":
      return "Google has not verified that email address. Sign in with your email and password instead.";
    case "suspended":
      return authMessages.accountSuspended;
    case "disabled":
      return "Google sign-in is not available right now. Please use your email and password.";
    default:
      return "Google sign-in did not complete. Please try again or use your email.";
  }
}
