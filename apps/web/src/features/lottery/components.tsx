import type { Lottery, LotteryRegions } from "@diginoor/api/lottery";
import { Link } from "react-router";
import { useCountdown } from "../../lib/hooks.ts";
import { ButtonLink } from "../../ui/Button.tsx";
import { Price } from "../../ui/Price.tsx";
import { LotteryImage } from "./LotteryArt.tsx";

export const STATE_LABELS: Record<Lottery["state"], string> = {
  scheduled: "Opens soon",
  open: "Open",
  closed: "Closed · waiting for the draw",
  drawn: "Drawn",
  not_activated: "Not activated · refunded",
};

/** The prize as the pages show it: a pool as a price (rupees first), an NFT by its title. */
export function Prize({ lottery: l }: { lottery: Lottery }) {
  if (l.prize.kind === "pool") return <Price usdCents={l.prize.amountCents} />;
  return l.prizeNft ? `${l.prizeNft.title} (NFT)` : "An NFT from the catalogue";
}

/** Tickets sold against the lottery's activation minimum. */
export function LotteryProgress({ lottery }: { lottery: Lottery }) {
  const pct = Math.min(100, Math.round((lottery.ticketsSold / lottery.minTickets) * 100));
  return (
    <div className="lottery-progress">
      <div className="lottery-progress__label">
        <span>
          <strong className="tabular" data-testid="tickets-sold">
            {lottery.ticketsSold}
          </strong>{" "}
          of {lottery.minTickets} tickets
        </span>
        <span className="tabular">{pct}%</span>
      </div>
      <div
        className="lottery-progress__bar"
        role="progressbar"
        aria-label="Tickets sold against the minimum to activate the lottery"
        aria-valuemin={0}
        aria-valuemax={lottery.minTickets}
        aria-valuenow={Math.min(lottery.ticketsSold, lottery.minTickets)}
      >
        <span style={{ width: `${pct}%` }} />
      </div>
      <p className="lottery-progress__note">
        Minimum number of tickets to activate the lottery is {lottery.minTickets}
      </p>
    </div>
  );
}

/** Players, ticket price and prize, as the list and the lottery's page show them. */
export function LotteryFacts({ lottery }: { lottery: Lottery }) {
  return (
    <dl className="lottery-facts">
      <div>
        <dt>Players</dt>
        <dd className="tabular" data-testid="players">
          {lottery.players}
        </dd>
      </div>
      <div>
        <dt>Ticket price</dt>
        <dd className="tabular">
          <Price usdCents={lottery.ticketPriceCents} />
        </dd>
      </div>
      <div>
        <dt>Prize</dt>
        <dd>
          <Prize lottery={lottery} />
        </dd>
      </div>
    </dl>
  );
}

/** Time left before a lottery closes (or opens). */
export function LotteryCountdown({ lottery }: { lottery: Lottery }) {
  const target = lottery.state === "scheduled" ? lottery.opensAt : lottery.closesAt;
  const parts = useCountdown(target);
  if (lottery.state !== "open" && lottery.state !== "scheduled") return null;
  if (!parts) return null;
  const text = parts.ended
    ? "now"
    : `${parts.days}d ${String(parts.hours).padStart(2, "0")}h ${String(parts.minutes).padStart(2, "0")}m ${String(parts.seconds).padStart(2, "0")}s`;
  return (
    <p className="lottery-countdown">
      {lottery.state === "scheduled" ? "Opens in " : "Closes in "}
      <time dateTime={target} className="tabular" suppressHydrationWarning>
        {text}
      </time>
    </p>
  );
}

/** The development server's notice that every region is allowed here. */
export function RegionsNotice({ regions }: { regions: LotteryRegions | undefined }) {
  if (!regions) return null;
  if (regions.notice)
    return (
      <p className="lottery-notice" role="note">
        {regions.notice}
      </p>
    );
  return (
    <p className="lottery-notice" role="note">
      Lotteries are regulated: Diginoor runs them only in {regions.allowed.join(", ") || "no region yet"}.
      Elsewhere lotteries are not available.
    </p>
  );
}

/** One lottery in the /lottery carousel. */
export function LotteryCard({ lottery }: { lottery: Lottery }) {
  return (
    <article className="lottery-card" aria-labelledby={`lottery-${lottery.id}`}>
      <LotteryImage lottery={lottery} className="lottery-card__art" size={400} lazy />
      <div className="lottery-card__body">
        <p className="eyebrow">{STATE_LABELS[lottery.state]}</p>
        <h3 id={`lottery-${lottery.id}`}>{lottery.name}</h3>
        <LotteryFacts lottery={lottery} />
        <LotteryProgress lottery={lottery} />
        <ButtonLink to={`/lottery/${lottery.id}`} block>
          {lottery.state === "open" || lottery.state === "scheduled" ? "ENTER CONTEST" : "See the result"}
        </ButtonLink>
      </div>
    </article>
  );
}

export function VerifyLink({ id }: { id: string }) {
  return <Link to={`/lottery/${id}/verify`}>Check the draw yourself</Link>;
}
