import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useSearchParams } from "react-router";
import { AuthCard } from "../../features/auth/components.tsx";
import { confirmAccountDeletion } from "../../features/profile/api.ts";
import { messageOf } from "../../lib/api.ts";
import { sessionQueryKey } from "../../lib/session.ts";
import { Button, ButtonLink } from "../../ui/Button.tsx";
import { Notice } from "../../ui/form.tsx";

/**
 * The mailed link that confirms a Google-only account's deletion (decision 170). Nothing happens on
 * load (mail scanners open links): the person presses the button.
 */
export function Component() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const queryClient = useQueryClient();
  useEffect(() => {
    document.title = "Delete your account · Diginoor";
  }, []);
  const confirm = useMutation({
    mutationFn: () => confirmAccountDeletion({ token }),
    onSuccess: () => queryClient.setQueryData(sessionQueryKey, null),
  });

  if (confirm.isSuccess) {
    return (
      <AuthCard eyebrow="Account deleted" title="Your account has been deleted">
        <Notice tone="success">
          <p>
            Your name, email, phone, pictures and handle are erased. Orders and on-chain records we must keep
            are no longer linked to you.
          </p>
        </Notice>
        <ButtonLink to="/" block size="lg">
          Back to Diginoor
        </ButtonLink>
      </AuthCard>
    );
  }
  return (
    <AuthCard eyebrow="Delete account" title="Delete your Diginoor account?">
      {confirm.isError ? (
        <Notice tone="error">
          <p>{messageOf(confirm.error, "This link has been used or has expired")}</p>
        </Notice>
      ) : null}
      <p className="auth-card__lead">
        This signs you out everywhere, unlinks your wallets and erases your name, email, phone, pictures and
        handle. It cannot be undone.
      </p>
      <Button
        variant="danger"
        block
        size="lg"
        loading={confirm.isPending}
        disabled={!token}
        onClick={() => confirm.mutate()}
      >
        Delete my account
      </Button>
    </AuthCard>
  );
}
