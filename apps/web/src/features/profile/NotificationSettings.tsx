import {
  type EmailNotificationKind,
  emailKindLabels,
  type notificationEndpoints as api,
} from "@diginoor/api/notifications";
import type { privacyEndpoints as privacyApi } from "@diginoor/api/privacy";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { callApi } from "../../lib/api.ts";
import { QueryState } from "../../ui/QueryState.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";
import { useToast } from "../../ui/Toast.tsx";

const key = ["notification-preferences"] as const;
const newsletterKey = ["newsletter-consent"] as const;

/** Which notifications are also emailed (decision 152); each switch saves at once. */
export function NotificationSettings() {
  const queryClient = useQueryClient();
  const toast = useToast();
  const sectionRef = useRef<HTMLElement>(null);
  const prefs = useQuery({
    queryKey: key,
    queryFn: ({ signal }) =>
      callApi<typeof api.getPreferences>("GET /api/v1/me/notification-preferences", { signal }),
  });
  const save = useMutation({
    mutationFn: (item: { kind: EmailNotificationKind; email: boolean }) =>
      callApi<typeof api.updatePreferences>("PUT /api/v1/me/notification-preferences", {
        body: { items: [item] },
      }),
    onSuccess: (data) => {
      queryClient.setQueryData(key, data);
      toast.success("Notification settings saved");
    },
    onError: () => toast.error("Something Went Wrong"),
  });
  // The newsletter is a mail consent of its own (decision 170): recorded with its time, withdrawable.
  const newsletter = useQuery({
    queryKey: newsletterKey,
    queryFn: ({ signal }) =>
      callApi<typeof privacyApi.getNewsletterConsent>("GET /api/v1/me/newsletter", { signal }),
  });
  const setNewsletter = useMutation({
    mutationFn: (subscribed: boolean) =>
      callApi<typeof privacyApi.setNewsletterConsent>("PUT /api/v1/me/newsletter", { body: { subscribed } }),
    onSuccess: (data) => {
      queryClient.setQueryData(newsletterKey, data);
      toast.success(data.subscribed ? "Subscribed to the newsletter" : "Unsubscribed from the newsletter");
    },
    onError: () => toast.error("Something Went Wrong"),
  });
  // The settings link in every notification email ends with #notifications.
  useEffect(() => {
    if (prefs.isSuccess && window.location.hash === "#notifications")
      sectionRef.current?.scrollIntoView({ block: "start" });
  }, [prefs.isSuccess]);

  return (
    <section
      ref={sectionRef}
      className="profile-card"
      id="notifications"
      aria-labelledby="notifications-title"
    >
      <h2 className="profile-card__title" id="notifications-title">
        Email notifications
      </h2>
      <p className="profile-card__lead">
        Every notification shows under the bell. Choose which ones we also send to your email.
      </p>
      <QueryState
        query={prefs}
        loading={<Skeleton height="8rem" />}
        error={<p className="profile-card__lead">We couldn't load your notification settings.</p>}
      >
        {(data) => (
          <ul className="notify-prefs">
            {data.items.map((item) => (
              <li key={item.kind} className="notify-prefs__item">
                <label className="notify-prefs__label">
                  <input
                    type="checkbox"
                    className="notify-prefs__switch"
                    role="switch"
                    aria-checked={item.email}
                    name={item.kind}
                    checked={item.email}
                    disabled={save.isPending}
                    onChange={(e) => save.mutate({ kind: item.kind, email: e.target.checked })}
                  />
                  <span>Email me when {emailKindLabels[item.kind]}</span>
                </label>
              </li>
            ))}
            {newsletter.data ? (
              <li className="notify-prefs__item">
                <label className="notify-prefs__label">
                  <input
                    type="checkbox"
                    className="notify-prefs__switch"
                    role="switch"
                    aria-checked={newsletter.data.subscribed}
                    name="newsletter"
                    checked={newsletter.data.subscribed}
                    disabled={setNewsletter.isPending}
                    onChange={(e) => setNewsletter.mutate(e.target.checked)}
                  />
                  <span>
                    Send me the Diginoor newsletter (news about drops)
                    {newsletter.data.since
                      ? `, subscribed since ${new Date(newsletter.data.since).toLocaleDateString("en-IN")}`
                      : ""}
                  </span>
                </label>
              </li>
            ) : null}
          </ul>
        )}
      </QueryState>
    </section>
  );
}
