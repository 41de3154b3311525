import type { OrderList } from "@diginoor/api/orders";
import { Link } from "react-router";
import { ButtonLink } from "../../ui/Button.tsx";
import { EmptyState } from "../../ui/EmptyState.tsx";
import { QueryState } from "../../ui/QueryState.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";
import { orderPrice, useMyOrders } from "../../lib/orders.ts";
import { Price } from "../../ui/Price.tsx";

type OrderRow = OrderList["items"][number];

const STATE_LABELS: Record<OrderRow["state"], string> = {
  created: "Starting",
  awaiting_payment: "Awaiting payment",
  paid: "Paid",
  minting: "Minting",
  fulfilled: "In your wallet",
  failed: "Failed",
  expired: "Expired",
  cancelled: "Cancelled",
  refund_pending: "Refund on its way",
  refunded: "Refunded",
  refund_failed: "Refund failed: we are on it",
};
const PROVIDER_LABELS: Record<OrderRow["provider"], string> = {
  wallet: "Wallet",
  sandbox: "Card (sandbox)",
  stripe: "Card",
  cashfree: "Rupees (Cashfree)",
};

/** The 'My orders' tab: every purchase attempt (wallet, card, rupees), newest first, each linking to its live page. */
export function MyOrders() {
  const orders = useMyOrders();
  return (
    <QueryState
      query={orders}
      loading={<Skeleton height={200} />}
      errorTitle="We couldn't load your orders"
      isEmpty={(d) => d.items.length === 0}
      empty={
        <EmptyState
          title="No orders yet"
          action={
            <ButtonLink to="/collections" variant="secondary">
              Explore collections
            </ButtonLink>
          }
        >
          NFTs you buy by wallet, card or in rupees are listed here with their progress.
        </EmptyState>
      }
    >
      {({ items }) => (
        <ul className="profile-list" aria-label="Your orders" data-testid="orders-list">
          {items.map((o) => (
            <li key={o.orderId} className="profile-row my-order">
              <img src={o.imageUrl} alt="" width={48} height={60} className="profile-row__img" />
              <div className="profile-row__text">
                {o.nftId === null ? (
                  // A lottery ticket order: "3 tickets · <lottery>", followed on its own page.
                  <Link to={`/lottery_purchased/${o.lotteryId}?order=${o.orderId}`}>{o.nftTitle}</Link>
                ) : (
                  <Link to={`/confirmation/${o.nftId}/${o.orderId}`}>
                    {o.nftTitle} · edition {o.edition}
                  </Link>
                )}
                <Price {...orderPrice(o)} />
                <span>
                  {PROVIDER_LABELS[o.provider]} ·{" "}
                  {new Date(o.createdAt).toLocaleDateString(undefined, {
                    day: "numeric",
                    month: "short",
                    year: "numeric",
                  })}
                </span>
              </div>
              <span className={`bid-state order-state--${o.state}`}>{STATE_LABELS[o.state]}</span>
            </li>
          ))}
        </ul>
      )}
    </QueryState>
  );
}
