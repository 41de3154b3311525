import type { KycState, kycEndpoints as api } from "@diginoor/api/kyc";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { callApi, messageOf } from "../../lib/api.ts";
import { formatInr } from "../../lib/format.ts";
import { Button } from "../../ui/Button.tsx";
import { QueryState } from "../../ui/QueryState.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";
import { useToast } from "../../ui/Toast.tsx";

const key = ["kyc"] as const;

const labels: Record<KycState, string> = {
  not_started: "Not started",
  pending: "Pending",
  verified: "Verified",
  rejected: "Rejected",
};

/**
 * Verify identity (KYC, decision 175): where the verification stands, and the way to the provider's
 * hosted page. Needed before any payout and for rupee purchases above the yearly limit. While a
 * result is awaited (the provider's webhook follows the return) the state is read again every 2 s.
 */
export function VerifyIdentity() {
  const toast = useToast();
  const sectionRef = useRef<HTMLElement>(null);
  const status = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => callApi<typeof api.getKyc>("GET /api/v1/me/kyc", { signal }),
    refetchInterval: (query) => (query.state.data?.state === "pending" ? 2000 : false),
  });
  const start = useMutation({
    mutationFn: () => callApi<typeof api.startKyc>("POST /api/v1/me/kyc", {}),
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (err) => toast.error(messageOf(err, "Something Went Wrong")),
  });
  // The provider sends the applicant back to #verify-identity.
  useEffect(() => {
    if (status.isSuccess && window.location.hash === "#verify-identity")
      sectionRef.current?.scrollIntoView({ block: "start" });
  }, [status.isSuccess]);

  return (
    <section ref={sectionRef} className="profile-card" id="verify-identity" aria-labelledby="kyc-title">
      <h2 className="profile-card__title" id="kyc-title">
        Verify identity
      </h2>
      <QueryState
        query={status}
        loading={<Skeleton height="6rem" />}
        error={<p className="profile-card__lead">We couldn't load your identity verification.</p>}
      >
        {(s) => (
          <>
            <p className="profile-card__lead">
              Indian law asks us to know who receives money from Diginoor. Verify your identity before a prize
              or earnings can be paid to you, and to buy for more than{" "}
              <strong>{formatInr(BigInt(s.inrYearlyLimitPaise))}</strong> in rupees in a financial year (April
              to March). Our verification partner checks your document and keeps it; Diginoor keeps only the
              result.
            </p>
            <p className="kyc-status">
              Status:{" "}
              <span className={`kyc-badge kyc-badge--${s.state}`} data-testid="kyc-state">
                {labels[s.state]}
              </span>
            </p>
            {s.state === "pending" ? (
              <div className="auth-notice auth-notice--warning" role="status">
                <p>
                  We are waiting for the result from our verification partner. This page updates by itself.
                </p>
              </div>
            ) : null}
            {s.state === "rejected" ? (
              <div className="auth-notice auth-notice--error" role="alert">
                <p>
                  Your identity could not be verified{s.reason ? `: ${s.reason}` : ""}. You can try again.
                </p>
              </div>
            ) : null}
            {s.state === "verified" ? (
              <div className="auth-notice auth-notice--success" role="status">
                <p>
                  Your identity is verified
                  {s.decidedAt ? ` since ${new Date(s.decidedAt).toLocaleDateString("en-IN")}` : ""}. Payouts
                  and rupee purchases are open to you.
                </p>
              </div>
            ) : (
              <div className="profile-card__actions">
                <Button loading={start.isPending} onClick={() => start.mutate()}>
                  {s.state === "not_started"
                    ? "VERIFY IDENTITY"
                    : s.state === "rejected"
                      ? "TRY AGAIN"
                      : "CONTINUE VERIFICATION"}
                </Button>
              </div>
            )}
          </>
        )}
      </QueryState>
    </section>
  );
}
