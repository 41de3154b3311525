import { Link } from "react-router";
import { useMyTickets } from "../../lib/lottery.ts";
import { ButtonLink } from "../../ui/Button.tsx";
import { EmptyState } from "../../ui/EmptyState.tsx";
import { QueryState } from "../../ui/QueryState.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";

const RESULT: Record<string, string> = {
  scheduled: "Opens soon",
  open: "Open · the draw follows the closing time",
  closed: "Closed · waiting for the draw",
  not_activated: "Not activated · your tickets are refunded",
};

/** Where the winner's prize is (decision 161). */
const PRIZE: Record<string, string> = {
  minting: "Your prize is being minted to your wallet.",
  minted: "Your prize is in your wallet.",
  owed: "Your prize will be paid to you.",
  paid: "Your prize has been paid.",
};

/** The 'Tickets' tab: my tickets per lottery, their numbers, and each lottery's result. */
export function MyTickets() {
  const tickets = useMyTickets();
  return (
    <QueryState
      query={tickets}
      loading={<Skeleton height={200} />}
      errorTitle="We couldn't load your tickets"
      isEmpty={(d) => d.items.length === 0}
      empty={
        <EmptyState
          title="No tickets yet"
          action={
            <ButtonLink to="/lottery" variant="secondary">
              See the lotteries
            </ButtonLink>
          }
        >
          Tickets you buy in a lottery are listed here with their numbers and the result of the draw.
        </EmptyState>
      }
    >
      {({ items }) => (
        <ul className="profile-list" aria-label="Your lottery tickets" data-testid="tickets-list">
          {items.map((t) => (
            <li key={t.lottery.id} className="profile-row my-tickets">
              <div className="profile-row__text">
                <Link to={`/lottery/${t.lottery.id}`}>{t.lottery.name}</Link>
                <span className="tabular">
                  {t.tickets} {t.tickets === 1 ? "ticket" : "tickets"}:{" "}
                  {t.ranges
                    .map((r) => (r.first === r.last ? `#${r.first}` : `#${r.first}–#${r.last}`))
                    .join(", ")}
                </span>
                <span className="muted" data-testid="ticket-result">
                  {t.lottery.state === "drawn" && t.lottery.draw ? (
                    <>
                      {t.won ? "You won!" : "Not this time."} Winning ticket #{t.lottery.draw.winningTicket} ·{" "}
                      <Link to={`/lottery/${t.lottery.id}/verify`}>verify the draw</Link>
                      {t.won && t.lottery.prizeDelivery ? (
                        <span className="my-tickets__prize" data-testid="ticket-prize">
                          {t.lottery.prizeDelivery.state === "awaiting_wallet" ? (
                            <>
                              Link a wallet to receive your prize: it is minted as soon as you do.{" "}
                              <Link to="/wallet">Link a wallet</Link>
                            </>
                          ) : (
                            PRIZE[t.lottery.prizeDelivery.state]
                          )}
                        </span>
                      ) : null}
                    </>
                  ) : (
                    RESULT[t.lottery.state]
                  )}
                </span>
              </div>
            </li>
          ))}
        </ul>
      )}
    </QueryState>
  );
}
