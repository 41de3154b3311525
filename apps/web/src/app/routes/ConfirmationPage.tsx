import type { Order } from "@diginoor/api/orders";
import type { ReactNode } from "react";
import { useParams } from "react-router";
import { useDocumentTitle } from "../../lib/hooks.ts";
import { RequireAccount } from "../../lib/account.tsx";
import { formatPrice } from "../../lib/format.ts";
import { useRates } from "../../lib/rates.ts";
import { ButtonLink, buttonClass } from "../../ui/Button.tsx";
import { NotFoundContent } from "../../ui/NotFound.tsx";
import { containerFrame, QueryState } from "../../ui/QueryState.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { orderPrice, useMyOrders } from "../../lib/orders.ts";
import { Price } from "../../ui/Price.tsx";
import { useOrder } from "../../features/nft/checkout/api.ts";
import { TransactionLink, tweetUrl } from "../../features/nft/components/TransactionLink.tsx";
import "./confirmation.css";

type StepState = "done" | "current" | "todo";

/** A card order: paid on the provider's page, then minted to the buyer's wallet by Diginoor. */
function cardStepsOf(o: Order, priceText: string): { label: string; detail?: string; state: StepState }[] {
  const paid = o.state === "paid" || o.state === "minting" || o.state === "fulfilled";
  const minting = o.state === "minting";
  const done = o.state === "fulfilled";
  return [
    { label: "Order placed", detail: `Edition ${o.edition} reserved for you`, state: "done" },
    {
      label: "Payment received",
      detail: paid
        ? priceText
        : `Waiting for ${o.provider === "cashfree" ? "Cashfree" : "the card provider"} to confirm the payment`,
      state: paid ? "done" : "current",
    },
    {
      label: "Minting",
      detail: minting ? "Minting your NFT on the blockchain" : undefined,
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

/**
 * /confirmation/:nftId/:orderId, and the providers' return page /paymentstatus/:nftId/:orderId/*: the
 * live progress of a purchase, for the order's owner only. What the browser's return says (success or
 * cancel) changes nothing: the state shown is the server's, moved by the provider's webhook.
 */
export function ConfirmationPage() {
  const { nftId, orderId, "*": rest } = useParams();
  useDocumentTitle("Your NFT is on its way");
  return (
    <RequireOrderOwner>
      <OrderConfirmation nftId={nftId} orderId={orderId} cancelled={rest?.startsWith("cancelled") ?? false} />
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
  return <OrderConfirmation nftId={nftId} orderId={latest.orderId} cancelled={false} />;
}

function OrderConfirmation({
  nftId,
  orderId,
  cancelled,
}: {
  nftId: string | undefined;
  orderId: string | undefined;
  cancelled: boolean;
}) {
  const order = useOrder(orderId);
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
      {(o) => <OrderDetails o={o} cancelled={cancelled} />}
    </QueryState>
  );
}

/** A loaded order: where it stands, what was paid and what to do next. */
function OrderDetails({ o, cancelled }: { o: Order; cancelled: boolean }) {
  const failed = o.state === "failed" || o.state === "expired" || o.state === "refunded";
  const done = o.state === "fulfilled";
  const share = tweetUrl(`I just collected ${o.nftTitle} on Diginoor!`, `/nftdetail/${o.nftId}`);
  const rates = useRates();
  return (
    <div className="container section confirmation">
      <article className="confirmation-card">
        <img src={o.imageUrl} alt={o.nftTitle} className="confirmation-art" width={320} height={400} />
        <div className="confirmation-body">
          <h1>
            {done
              ? "Your NFT is in your wallet!"
              : failed
                ? "This purchase did not go through"
                : "Your NFT is on its way"}
          </h1>
          <p className="muted">
            {o.nftTitle} · edition {o.edition} · <Price {...orderPrice(o)} />
          </p>
          {failed ? (
            <p className="form-error" role="alert">
              {o.state === "expired"
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
          {cancelled && o.state === "awaiting_payment" && o.checkoutUrl ? (
            <p className="confirmation-note" role="status">
              You left the payment page. Your edition stays reserved until{" "}
              {new Date(o.reservedUntil).toLocaleTimeString(undefined, {
                hour: "2-digit",
                minute: "2-digit",
              })}
              : <a href={o.checkoutUrl}>go back to the payment</a>.
            </p>
          ) : null}
          {!done && !failed ? (
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
            <ButtonLink to="/profile">Continue</ButtonLink>
          </div>
        </div>
      </article>
    </div>
  );
}
