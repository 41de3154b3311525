import type { Order } from "@diginoor/api/orders";
import { useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { useNavigate, useParams } from "react-router";
import { ApiError } from "../../lib/api.ts";
import { useCountdown, useDocumentTitle } from "../../lib/hooks.ts";
import { RequireAccount } from "../../lib/account.tsx";
import { formatPrice } from "../../lib/format.ts";
import { useRates } from "../../lib/rates.ts";
import { Button, ButtonLink, buttonClass } from "../../ui/Button.tsx";
import { NotFoundContent } from "../../ui/NotFound.tsx";
import { containerFrame, QueryState } from "../../ui/QueryState.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { orderPrice, useMyOrders } from "../../lib/orders.ts";
import { Price } from "../../ui/Price.tsx";
import { checkoutApi, goToCheckout, useOrder } from "../../features/nft/checkout/api.ts";
import { TransactionLink, tweetUrl } from "../../features/nft/components/TransactionLink.tsx";
import "./confirmation.css";

type StepState = "done" | "current" | "todo";

/** A card order: paid on the provider's page, then minted to the buyer's wallet by Diginoor. */
function cardStepsOf(o: Order, priceText: string): { label: string; detail?: string; state: StepState }[] {
  const paid = o.state === "paid" || o.state === "minting" || o.state === "fulfilled";
  const minting = o.state === "minting";
  const done = o.state === "fulfilled";
  // A resale (decision 165): Diginoor buys the fan's listing on chain and sends the token on.
  const resale = o.kind === "resale";
  return [
    {
      label: "Order placed",
      detail: resale ? `Edition ${o.edition}, a fan's listing` : `Edition ${o.edition} reserved for you`,
      state: "done",
    },
    {
      label: "Payment received",
      detail: paid
        ? priceText
        : `Waiting for ${o.provider === "cashfree" ? "Cashfree" : "the card provider"} to confirm the payment`,
      state: paid ? "done" : "current",
    },
    {
      label: resale ? "Buying the listing" : "Minting",
      detail: minting
        ? resale
          ? "Buying the listing on the blockchain and sending the NFT to your wallet"
          : "Minting your NFT on the blockchain"
        : undefined,
      state: done ? "done" : paid ? "current" : "todo",
    },
    {
      label: "In your wallet",
      detail: done ? `Token #${o.tokenId}` : undefined,
      state: done ? "done" : "todo",
    },
  ];
}

function stepsOf(o: Order, priceText: string): { label: string; detail?: string; state: StepState }[] {
  if (o.provider !== "wallet") return cardStepsOf(o, priceText);
  const sent = !!o.txHash;
  const done = o.state === "fulfilled";
  const confirmations =
    o.confirmations !== null && o.requiredConfirmations !== null
      ? `${Math.min(o.confirmations, o.requiredConfirmations)} of ${o.requiredConfirmations} confirmations`
      : o.confirmations !== null
        ? `${o.confirmations} blocks so far; waiting for the block to be final`
        : undefined;
  return [
    { label: "Order placed", detail: `Edition ${o.edition} reserved for you`, state: "done" },
    {
      label: "Payment sent from your wallet",
      detail: sent ? undefined : "Waiting for your wallet to send the payment",
      state: sent ? "done" : "current",
    },
    {
      label: "Confirming on the blockchain",
      detail: sent && !done ? confirmations : undefined,
      state: done ? "done" : sent ? "current" : "todo",
    },
    {
      label: "In your wallet",
      detail: done ? `Token #${o.tokenId}` : undefined,
      state: done ? "done" : "todo",
    },
  ];
}

/** An unpaid order this close to its end says so. */
const EXPIRY_WARNING_MS = 5 * 60_000;

/**
 * /confirmation/:nftId/:orderId, and the providers' return page /paymentstatus/:nftId/:orderId/*: the
 * live progress of a purchase, for the order's owner only. A success return changes nothing (the state
 * shown is the server's, moved by the provider's webhook); `…/cancelled` (Back or cancel on the
 * provider's page, Abandon) and `…/returned` (Cashfree's return, whatever happened) ask the server to
 * cancel the unpaid order, which first asks the provider whether it was paid (decision 143).
 */
export function ConfirmationPage() {
  const { nftId, orderId, "*": rest } = useParams();
  useDocumentTitle("Your NFT is on its way");
  const leaving = rest === "cancelled" || rest === "returned";
  return (
    <RequireOrderOwner>
      <OrderConfirmation nftId={nftId} orderId={orderId} leaving={leaving} />
    </RequireOrderOwner>
  );
}

const sectionFrame = (state: ReactNode) => <div className="container section">{state}</div>;

/** The buyer's pages: visitors sign in first. */
function RequireOrderOwner({ children }: { children: ReactNode }) {
  return (
    <RequireAccount what="your order" loading={<ConfirmationSkeleton />} frame={sectionFrame}>
      {() => children}
    </RequireAccount>
  );
}

function ConfirmationSkeleton() {
  return (
    <div className="container section confirmation" data-loading="">
      <Skeleton height={360} radius="var(--radius-lg)" />
    </div>
  );
}

/** /Nft_conformation/:nftId (the old site's return page): the user's newest order of that NFT. */
export function LatestOrderConfirmationPage() {
  return (
    <RequireOrderOwner>
      <LatestOrderConfirmation />
    </RequireOrderOwner>
  );
}

function LatestOrderConfirmation() {
  const { nftId } = useParams();
  const orders = useMyOrders(true);
  if (orders.isPending) return <ConfirmationSkeleton />;
  const latest = orders.data?.items.find((o) => o.nftId === nftId);
  if (!latest) return <NotFoundContent title="Order not found" message="You have no order of this NFT." />;
  return <OrderConfirmation nftId={nftId} orderId={latest.orderId} leaving={false} />;
}

/** An NFT order: what this page shows (ticket orders have their own page, /lottery_purchased). */
type NftOrder = Order & { nftId: string; edition: number };

const unpaid = (o: Order) => o.state === "created" || o.state === "awaiting_payment";

function OrderConfirmation({
  nftId,
  orderId,
  leaving,
}: {
  nftId: string | undefined;
  orderId: string | undefined;
  leaving: boolean;
}) {
  const order = useOrder(orderId);
  const queryClient = useQueryClient();
  const asked = useRef(false);
  const [cancelling, setCancelling] = useState(false);
  // The fan left the provider's page without paying: cancel the order once, releasing the edition now.
  useEffect(() => {
    const o = order.data;
    if (!leaving || asked.current || !o || o.provider === "wallet" || !unpaid(o)) return;
    asked.current = true;
    setCancelling(true);
    checkoutApi
      .cancelOrder(o.orderId)
      .then((fresh) => queryClient.setQueryData(["order", o.orderId], fresh))
      .catch(() => queryClient.invalidateQueries({ queryKey: ["order", o.orderId] }))
      .finally(() => setCancelling(false));
  }, [leaving, order.data, queryClient]);
  const notFound = (order.error as { status?: number } | null)?.status;
  if (notFound === 404 || notFound === 400 || (order.data && order.data.nftId !== nftId)) {
    return <NotFoundContent title="Order not found" message="This order doesn't exist or isn't yours." />;
  }
  return (
    <QueryState
      query={order}
      loading={<ConfirmationSkeleton />}
      errorTitle="We couldn't load your order"
      errorFrame={containerFrame}
    >
      {(o) =>
        cancelling ? (
          <div className="container section confirmation">
            <Spinner label="Cancelling your order…" />
          </div>
        ) : (
          // This page shows NFT orders (a ticket order's nftId is null, so it is "not found" above).
          <OrderDetails o={o as NftOrder} />
        )
      }
    </QueryState>
  );
}

/** A loaded order: where it stands, what was paid and what to do next. */
function OrderDetails({ o }: { o: NftOrder }) {
  const refund = o.state === "refund_pending" || o.state === "refunded" || o.state === "refund_failed";
  const failed = o.state === "failed" || o.state === "expired" || o.state === "cancelled" || refund;
  const done = o.state === "fulfilled";
  const declined = o.state === "failed" && o.provider !== "wallet";
  const share = tweetUrl(`I just collected ${o.nftTitle} on Diginoor!`, `/nftdetail/${o.nftId}`);
  const rates = useRates();
  return (
    <div className="container section confirmation">
      <article className="confirmation-card">
        <img src={o.imageUrl} alt={o.nftTitle} className="confirmation-art" width={320} height={400} />
        <div className="confirmation-body">
          <h1>
            {refund
              ? o.state === "refunded"
                ? "Refunded"
                : o.state === "refund_pending"
                  ? "Your refund is on its way"
                  : "Your refund did not go through yet"
              : done
                ? "Your NFT is in your wallet!"
                : o.state === "cancelled"
                  ? "Cancelled, nothing was charged"
                  : declined
                    ? "Payment declined"
                    : failed
                      ? "This purchase did not go through"
                      : "Your NFT is on its way"}
          </h1>
          <p className="muted">
            {o.nftTitle} · edition {o.edition} · <Price {...orderPrice(o)} />
          </p>
          {failed ? (
            <p className="form-error" role="alert">
              {refund
                ? `${o.state === "refunded" ? "We refunded" : o.state === "refund_pending" ? "We are refunding" : "We could not yet refund"} what you paid to the card or account you paid with${o.state === "refund_failed" ? "; our team is trying again" : ""}.${o.txHash ? " The token in your wallet stays yours." : ` Nothing was sold to you and edition ${o.edition} went back on sale.`}`
                : o.state === "cancelled"
                  ? `You left the payment without paying, so the order is cancelled and edition ${o.edition} was released.`
                  : o.state === "expired"
                    ? o.provider === "wallet"
                      ? "The price expired before a payment arrived, so nothing was charged and the edition was released."
                      : "The checkout was not completed in time, so nothing was charged and the edition was released."
                    : o.provider === "wallet"
                      ? "The payment did not complete. Nothing was charged."
                      : "The payment was declined. Nothing was charged."}
            </p>
          ) : (
            <ol className="steps" aria-label="Progress">
              {stepsOf(o, formatPrice(orderPrice(o), rates.data)).map((s) => (
                <li
                  key={s.label}
                  className={`step step-${s.state}`}
                  aria-current={s.state === "current" ? "step" : undefined}
                >
                  <span className="step-mark" aria-hidden="true">
                    {s.state === "done" ? "✓" : s.state === "current" ? <Spinner label="" /> : ""}
                  </span>
                  <span>
                    <strong>{s.label}</strong>
                    {s.detail ? <span className="step-detail">{s.detail}</span> : null}
                  </span>
                </li>
              ))}
            </ol>
          )}
          {unpaid(o) ? <HoldNotice o={o} /> : null}
          {!done && !failed && !unpaid(o) ? (
            <p className="muted confirmation-note">
              Transfers usually take seconds here and can take up to 20-30 minutes when the network is busy.
              You can leave this page: the NFT arrives in your wallet either way.
            </p>
          ) : null}
          {o.txHash ? <TransactionLink chainId={o.chainId} hash={o.txHash} /> : null}
          <div className="confirmation-actions">
            {done ? (
              <a
                className={buttonClass({ variant: "secondary" })}
                href={share}
                target="_blank"
                rel="noopener noreferrer"
              >
                Tweet it
              </a>
            ) : null}
            {failed && !refund ? (
              <>
                <TryAgain o={o} />
                <ButtonLink variant="secondary" to={`/nftdetail/${o.nftId}`}>
                  Back to the NFT
                </ButtonLink>
              </>
            ) : unpaid(o) && o.provider !== "wallet" ? (
              <UnpaidActions o={o} />
            ) : (
              <ButtonLink to="/profile">Continue</ButtonLink>
            )}
          </div>
        </div>
      </article>
    </div>
  );
}

/** An unpaid order: how long its edition stays held, and a warning in its last minutes. */
function HoldNotice({ o }: { o: NftOrder }) {
  const left = useCountdown(o.reservedUntil);
  const until = new Date(o.reservedUntil).toLocaleTimeString(undefined, {
    hour: "2-digit",
    minute: "2-digit",
  });
  if (left && !left.ended && left.totalMs <= EXPIRY_WARNING_MS) {
    const minutes = Math.max(1, Math.ceil(left.totalMs / 60_000));
    return (
      <p className="confirmation-expiring" role="alert">
        This order expires in {minutes === 1 ? "less than a minute" : `${minutes} minutes`}: pay before{" "}
        {until} or the edition is released.
      </p>
    );
  }
  return (
    <p className="confirmation-note" role="status">
      {left?.ended
        ? "This order has expired: the edition is being released."
        : `Edition ${o.edition} is held for you until ${until}.`}
    </p>
  );
}

/** An unpaid card or rupee order: go (back) to the payment, or cancel it and release the edition now. */
function UnpaidActions({ o }: { o: NftOrder }) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function cancel() {
    setBusy(true);
    setError(null);
    try {
      queryClient.setQueryData(["order", o.orderId], await checkoutApi.cancelOrder(o.orderId));
    } catch (err) {
      setError(err instanceof Error ? err.message : "We couldn't cancel the order; try again");
    } finally {
      setBusy(false);
    }
  }
  const checkoutUrl = o.checkoutUrl;
  return (
    <>
      {checkoutUrl ? (
        <Button onClick={() => goToCheckout({ nftId: o.nftId, orderId: o.orderId, checkoutUrl })}>
          Continue to payment
        </Button>
      ) : null}
      <Button variant="secondary" onClick={cancel} loading={busy}>
        Cancel order
      </Button>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
    </>
  );
}

/**
 * A declined, expired or cancelled purchase: a new attempt for the same NFT with the same provider,
 * straight to its payment page (wallet purchases start again from the NFT page, with a new price).
 */
function TryAgain({ o }: { o: NftOrder }) {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (o.provider === "wallet") return <ButtonLink to={`/nftdetail/${o.nftId}`}>Try again</ButtonLink>;
  const provider = o.provider;
  async function again() {
    setBusy(true);
    setError(null);
    try {
      const fresh = await checkoutApi.createHostedOrder(o.nftId, provider);
      if (fresh.checkoutUrl)
        goToCheckout({ nftId: o.nftId, orderId: fresh.orderId, checkoutUrl: fresh.checkoutUrl });
      else navigate(`/confirmation/${o.nftId}/${fresh.orderId}`);
    } catch (err) {
      setBusy(false);
      const details =
        err instanceof ApiError
          ? (err.details as { reason?: string; orderId?: string } | undefined)
          : undefined;
      if (details?.reason === "open_order" && details.orderId) {
        navigate(`/confirmation/${o.nftId}/${details.orderId}`);
      } else if (details?.reason === "phone_required" || details?.reason === "phone_invalid") {
        navigate(`/nftdetail/${o.nftId}`);
      } else {
        setError(err instanceof Error ? err.message : "We couldn't start the payment; try again");
      }
    }
  }
  return (
    <>
      <Button onClick={again} loading={busy}>
        Try again
      </Button>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
    </>
  );
}
