import type { notificationEndpoints as api } from "@diginoor/api/notifications";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { Link, useSearchParams } from "react-router";
import { callApi, messageOf } from "../../lib/api.ts";
import { Button } from "../../ui/Button.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { Notice } from "../../ui/form.tsx";
import { AuthCard } from "../../features/auth/components.tsx";

const INVALID = "This unsubscribe link is not valid. Change your email settings in your profile.";

/**
 * The page of a notification email's unsubscribe link (decision 152). Opening it changes nothing
 * (mail scanners open links); the button POSTs, like the one-click request of RFC 8058.
 */
export function Component() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  useEffect(() => {
    document.title = "Unsubscribe · Diginoor";
  }, []);

  const info = useQuery({
    queryKey: ["unsubscribe", token],
    queryFn: ({ signal }) =>
      callApi<typeof api.unsubscribeInfo>("GET /api/v1/unsubscribe", { query: { token }, signal }),
    enabled: token !== "",
    retry: false,
  });
  const off = useMutation({
    mutationFn: () => callApi<typeof api.unsubscribe>("POST /api/v1/unsubscribe", { query: { token } }),
  });
  const settings = (
    <p className="auth-footer">
      <Link to="/profile/edit_profile#notifications" className="auth-link">
        Notification settings
      </Link>
    </p>
  );

  if (!token || info.isError) {
    return (
      <AuthCard eyebrow="Email notifications" title="We couldn't read this link">
        <Notice tone="error">
          <p>{token ? messageOf(info.error, INVALID) : INVALID}</p>
        </Notice>
        {settings}
      </AuthCard>
    );
  }
  if (info.isPending) {
    return (
      <AuthCard eyebrow="Email notifications" title="Unsubscribe">
        <div className="auth-status">
          <Spinner label="Loading" />
        </div>
      </AuthCard>
    );
  }
  const label = info.data.label;
  if (off.isSuccess || !info.data.email) {
    return (
      <AuthCard eyebrow="Email notifications" title="You are unsubscribed">
        <Notice tone="success">
          <p>
            We will no longer email you when {label}. You still see these notifications under the bell on
            Diginoor.
          </p>
        </Notice>
        {settings}
      </AuthCard>
    );
  }
  return (
    <AuthCard eyebrow="Email notifications" title="Unsubscribe from these emails?">
      <p className="auth-card__lead">
        Stop emailing me when <strong>{label}</strong>. Other emails stay as they are, and you can turn this
        back on in your notification settings.
      </p>
      {off.isError ? (
        <Notice tone="error">
          <p>{messageOf(off.error, "Something Went Wrong")}</p>
        </Notice>
      ) : null}
      <Button type="button" block size="lg" loading={off.isPending} onClick={() => off.mutate()}>
        Unsubscribe
      </Button>
      {settings}
    </AuthCard>
  );
}
