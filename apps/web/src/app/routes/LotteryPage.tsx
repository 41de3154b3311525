import type { Lottery } from "@diginoor/api/lottery";
import type { Order } from "@diginoor/api/orders";
import { useEffect, useState } from "react";
import { Navigate, useNavigate, useParams, useSearchParams } from "react-router";
import {
  fetchTicketsCsv,
  recomputeWinningTicket,
  sha256Hex,
  useLiveLottery,
  useLotteries,
  useLottery,
  useLotteryWinners,
} from "../../features/lottery/api.ts";
import {
  LotteryCard,
  LotteryCountdown,
  LotteryFacts,
  LotteryProgress,
  Prize,
  RegionsNotice,
  STATE_LABELS,
  VerifyLink,
} from "../../features/lottery/components.tsx";
import { LotteryImage } from "../../features/lottery/LotteryArt.tsx";
import { useOrder } from "../../features/nft/checkout/api.ts";
import { RequireAccount } from "../../lib/account.tsx";
import { useDocumentTitle } from "../../lib/hooks.ts";
import { Button, ButtonLink } from "../../ui/Button.tsx";
import { Carousel } from "../../ui/Carousel.tsx";
import { NotFoundContent } from "../../ui/NotFound.tsx";
import { containerFrame, QueryState } from "../../ui/QueryState.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { PurchaseTickets } from "./LotteryTicketsDialog.tsx";
import "./lottery.css";

const HOW_IT_WORKS = [
  "Buy tickets for a lottery while it is open. Each paid order gets the next numbers in the order payments arrive.",
  "At the closing time the list of every order's ticket numbers is published, with its fingerprint (sha256).",
  "A few blocks later the draw combines our secret seed (whose fingerprint was public before the first ticket), that block's hash and the list's fingerprint into one winning ticket.",
  "If fewer tickets than the lottery's minimum were sold, it is not activated and every ticket is refunded to the card or account that paid.",
];

/** /lottery: the open lotteries, how it works, the prizes and the real winners so far. */
export function LotteryListPage() {
  useDocumentTitle("Lottery");
  const lotteries = useLotteries();
  const winners = useLotteryWinners();
  return (
    <div className="container section lottery-page">
      <header className="section-head">
        <p className="eyebrow">Lottery</p>
        <h1>Win a collectible</h1>
        <p className="muted">Buy tickets, watch them count up live, and check the draw yourself.</p>
      </header>
      <QueryState
        query={lotteries}
        errorTitle="We couldn't load the lotteries"
        loading={<Skeleton height={420} radius="var(--radius-lg)" />}
        isEmpty={(d) => d.items.length === 0}
        empty={<p className="state">No lottery is open right now. Come back soon.</p>}
      >
        {(data) => (
          <>
            <RegionsNotice regions={data.regions} />
            <Carousel
              items={data.items}
              label="Lotteries"
              getKey={(l) => l.id}
              desktopPerView={3}
              renderItem={(l) => <LotteryCard lottery={l} />}
            />
          </>
        )}
      </QueryState>
      <section className="lottery-section" aria-labelledby="lottery-rules">
        <h2 id="lottery-rules">Rules</h2>
        <ol className="lottery-rules">
          {HOW_IT_WORKS.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ol>
      </section>
      <section className="lottery-section" aria-labelledby="lottery-rewards">
        <h2 id="lottery-rewards">Potential rewards</h2>
        <QueryState query={lotteries} loading={<Skeleton height={120} />} error={null}>
          {(data) => (
            <ul className="lottery-rewards">
              {data.items
                .filter((l) => l.state === "open" || l.state === "scheduled")
                .map((l) => (
                  <li key={l.id} className="card">
                    <strong>
                      <Prize lottery={l} />
                    </strong>
                    <span className="muted">{l.name}</span>
                  </li>
                ))}
            </ul>
          )}
        </QueryState>
      </section>
      <section className="lottery-section" aria-labelledby="lottery-winners">
        <h2 id="lottery-winners">Winner history</h2>
        <QueryState
          query={winners}
          loading={<Skeleton height={120} />}
          isEmpty={(d) => d.items.length === 0}
          empty={<p className="muted">No draw has been made yet.</p>}
        >
          {(data) => (
            <ul className="lottery-winners">
              {data.items.map((w) => (
                <li key={w.lotteryId}>
                  <strong>{w.winner}</strong> won <em>{w.name}</em> with ticket #{w.winningTicket} on{" "}
                  {new Date(w.drawnAt).toLocaleDateString()} · <VerifyLink id={w.lotteryId} />
                </li>
              ))}
            </ul>
          )}
        </QueryState>
      </section>
    </div>
  );
}

/** /lottery/:id: one lottery, live; PURCHASE TICKETS opens the tickets dialog. */
export function LotteryDetailPage() {
  const { id } = useParams();
  const lottery = useLottery(id);
  useLiveLottery(id);
  useDocumentTitle(lottery.data?.name ?? "Lottery");
  return (
    <QueryState
      query={lottery}
      errorFrame={containerFrame}
      error={
        (lottery.error as { status?: number } | null)?.status === 404 ? (
          <NotFoundContent title="Lottery not found" />
        ) : undefined
      }
      loading={
        <div className="container section" data-loading="">
          <Skeleton height={420} radius="var(--radius-lg)" />
        </div>
      }
    >
      {(l) => <LotteryDetail lottery={l} />}
    </QueryState>
  );
}

function LotteryDetail({ lottery: l }: { lottery: Lottery }) {
  const lotteries = useLotteries();
  return (
    <div className="container section lottery-detail">
      <article className="lottery-hero">
        <LotteryImage lottery={l} className="lottery-hero__art" size={480} />
        <div className="lottery-hero__body">
          <p className="eyebrow">{STATE_LABELS[l.state]}</p>
          <h1>{l.name}</h1>
          <LotteryFacts lottery={l} />
          <LotteryProgress lottery={l} />
          <LotteryCountdown lottery={l} />
          <PurchaseTickets lottery={l} />
          <RegionsNotice regions={lotteries.data?.regions} />
          {l.state === "drawn" && l.draw ? (
            <p className="lottery-result">
              Winning ticket <strong className="tabular">#{l.draw.winningTicket}</strong> ·{" "}
              <a href={`/lottery/${l.id}/verify`}>verify the draw</a>
            </p>
          ) : null}
          {l.state === "not_activated" ? <p className="lottery-result">{l.outcome}</p> : null}
          <p className="lottery-commitment">
            Seed fingerprint, published before the first ticket: <code>{l.seedHash}</code>
          </p>
        </div>
      </article>
      {l.rules ? (
        <section className="lottery-section" id="rules" aria-labelledby="rules-title">
          <h2 id="rules-title">Rules of this lottery</h2>
          <p className="lottery-rules-text">{l.rules}</p>
        </section>
      ) : (
        <span id="rules" />
      )}
    </div>
  );
}

/** /lottery/:id/verify: every input of the draw, the result, recomputed here, and how to check by hand. */
export function LotteryVerifyPage() {
  const { id } = useParams();
  const lottery = useLottery(id);
  useDocumentTitle("Verify the draw");
  return (
    <QueryState
      query={lottery}
      errorFrame={containerFrame}
      loading={
        <div className="container section" data-loading="">
          <Skeleton height={420} />
        </div>
      }
    >
      {(l) => <Verification lottery={l} />}
    </QueryState>
  );
}

type Check = { name: string; ok: boolean; detail: string };

function Verification({ lottery: l }: { lottery: Lottery }) {
  const [checks, setChecks] = useState<Check[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const draw = l.draw;
  useEffect(() => {
    if (!draw) return;
    let cancelled = false;
    (async () => {
      const csv = await fetchTicketsCsv(l.id);
      const seedHash = await sha256Hex(hexBytes(draw.seed));
      const listHash = await sha256Hex(csv);
      const winning = await recomputeWinningTicket(
        draw.seed,
        draw.blockHash,
        draw.ticketListHash,
        l.ticketsSold,
      );
      const lines = new TextDecoder().decode(csv).split("\n").filter(Boolean);
      let next = 1;
      let contiguous = true;
      for (const line of lines) {
        const [a, b] = line.split(",").map(Number);
        if (a !== next || (b ?? 0) < (a ?? 0)) contiguous = false;
        next = (b ?? 0) + 1;
      }
      if (cancelled) return;
      setChecks([
        { name: "Seed", ok: seedHash === l.seedHash, detail: `sha256(seed) = ${seedHash}` },
        {
          name: "Ticket list",
          ok: listHash === draw.ticketListHash,
          detail: `sha256(tickets.csv) = ${listHash}`,
        },
        {
          name: "Ticket numbers",
          ok: contiguous && next - 1 === l.ticketsSold,
          detail: `${lines.length} orders, tickets 1 to ${next - 1}`,
        },
        {
          name: "Block",
          ok: l.closeBlock !== null && draw.blockNumber === l.closeBlock + l.drawBlocks,
          detail: `block ${draw.blockNumber} = closing block ${l.closeBlock} + ${l.drawBlocks}`,
        },
        { name: "Winning ticket", ok: winning === draw.winningTicket, detail: `recomputed: #${winning}` },
      ]);
    })().catch((err: Error) => setFailure(err.message));
    return () => {
      cancelled = true;
    };
  }, [l, draw]);

  return (
    <div className="container section lottery-verify">
      <p className="eyebrow">Verify the draw</p>
      <h1>{l.name}</h1>
      {!draw ? (
        <p className="state">
          {l.state === "not_activated"
            ? l.outcome
            : "The draw has not been made yet. The seed's fingerprint below is fixed; the rest appears at the draw."}
        </p>
      ) : null}
      <dl className="verify-inputs">
        <div>
          <dt>Seed fingerprint (published at creation)</dt>
          <dd>
            <code>{l.seedHash}</code>
          </dd>
        </div>
        <div>
          <dt>Tickets sold</dt>
          <dd className="tabular">{l.ticketsSold}</dd>
        </div>
        <div>
          <dt>Closing block (c)</dt>
          <dd className="tabular">{l.closeBlock ?? "—"}</dd>
        </div>
        <div>
          <dt>Ticket list fingerprint</dt>
          <dd>
            <code>{l.ticketListHash ?? "—"}</code>{" "}
            {l.ticketListHash ? <a href={`/api/v1/lotteries/${l.id}/tickets.csv`}>tickets.csv</a> : null}
          </dd>
        </div>
        {draw ? (
          <>
            <div>
              <dt>Seed (revealed at the draw)</dt>
              <dd>
                <code>{draw.seed}</code>
              </dd>
            </div>
            <div>
              <dt>Block used (c + {l.drawBlocks})</dt>
              <dd className="tabular">{draw.blockNumber}</dd>
            </div>
            <div>
              <dt>Its hash</dt>
              <dd>
                <code>{draw.blockHash}</code>
              </dd>
            </div>
            <div>
              <dt>Winning ticket</dt>
              <dd className="tabular" data-testid="winning-ticket">
                #{draw.winningTicket}
              </dd>
            </div>
          </>
        ) : null}
      </dl>
      {draw ? (
        <section aria-labelledby="recomputed" className="lottery-section">
          <h2 id="recomputed">Recomputed in your browser</h2>
          {failure ? <p role="alert">{failure}</p> : null}
          {!checks && !failure ? <Spinner label="Checking" /> : null}
          {checks ? (
            <ul className="verify-checks">
              {checks.map((c) => (
                <li key={c.name} data-ok={c.ok}>
                  <strong>
                    {c.ok ? "✓" : "✗"} {c.name}
                  </strong>{" "}
                  <span className="muted">{c.detail}</span>
                </li>
              ))}
            </ul>
          ) : null}
        </section>
      ) : null}
      <section aria-labelledby="by-hand" className="lottery-section">
        <h2 id="by-hand">Check it by hand</h2>
        <ol className="lottery-rules">
          <li>
            The seed's fingerprint was public before the first ticket: check that <code>sha256(seed)</code>{" "}
            equals it (e.g. <code>echo -n &lt;seed without 0x&gt; | xxd -r -p | sha256sum</code>).
          </li>
          <li>
            Download <code>tickets.csv</code> (one line per paid order: first ticket, last ticket, sha256 of
            the order id) and check that <code>sha256sum tickets.csv</code> is the ticket list fingerprint,
            and that the numbers run from 1 to the tickets sold without a gap.
          </li>
          <li>Look up block c + {l.drawBlocks} on a block explorer and check its hash.</li>
          <li>
            The winning ticket is{" "}
            <code>1 + (sha256(seed ‖ block hash ‖ list fingerprint) mod tickets sold)</code>, the three joined
            as 32-byte values and the digest read as one unsigned 256-bit number.
          </li>
          <li>
            Or run{" "}
            <code>
              npm run lottery:verify -- {typeof window === "undefined" ? "" : window.location.origin} {l.id}
            </code>{" "}
            from the Diginoor repository: it checks all of the above from this site's public API.
          </li>
        </ol>
      </section>
      <ButtonLink to={`/lottery/${l.id}`} variant="secondary">
        Back to the lottery
      </ButtonLink>
    </div>
  );
}

function hexBytes(hex: string): Uint8Array {
  const clean = hex.slice(2);
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(clean.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** /lottery_purchased/:id and /lottery_confirmation/:id?order=…: the ticket order, followed live. */
export function LotteryConfirmationPage() {
  const { id } = useParams();
  const [search] = useSearchParams();
  const orderId = search.get("order");
  useDocumentTitle("Your tickets");
  return (
    <RequireAccount what="your tickets" frame={containerFrame}>
      {() => <TicketOrderStatus lotteryId={id ?? ""} orderId={orderId} />}
    </RequireAccount>
  );
}

function TicketOrderStatus({ lotteryId, orderId }: { lotteryId: string; orderId: string | null }) {
  const order = useOrder(orderId ?? undefined);
  const navigate = useNavigate();
  const o = order.data as
    | (Order & { ticketCount?: number | null; tickets?: { first: number; last: number } | null })
    | undefined;
  if (!orderId) return <Navigate to={`/lottery/${lotteryId}`} replace />;
  const n = o?.ticketCount ?? 0;
  const paid = o && (o.state === "fulfilled" || o.state === "paid");
  return (
    <div className="container section confirmation">
      <article className="confirmation-card lottery-confirmation">
        <div className="confirmation-body">
          {!o ? (
            <Spinner label="Loading your order" />
          ) : paid ? (
            <>
              <h1>Your order for the purchase of {n} tickets has been confirmed!</h1>
              {o.tickets ? (
                <p className="tabular">
                  Your ticket numbers: #{o.tickets.first}
                  {o.tickets.last !== o.tickets.first ? ` to #${o.tickets.last}` : ""}
                </p>
              ) : null}
            </>
          ) : o.state === "awaiting_payment" || o.state === "created" ? (
            <>
              <h1>Waiting for your payment…</h1>
              <p className="muted">This page updates by itself once the payment provider confirms it.</p>
              <Spinner label="Waiting for the payment" />
            </>
          ) : o.state === "refunded" ? (
            <>
              <h1>Your payment is being refunded</h1>
              <p className="muted">
                The lottery had closed when your payment arrived; you have not been charged for tickets.
              </p>
            </>
          ) : (
            <>
              <h1>No tickets were bought</h1>
              <p className="muted">The payment did not go through ({o.state}). Nothing was charged.</p>
            </>
          )}
          <div className="confirmation-actions">
            <Button onClick={() => navigate(`/lottery/${lotteryId}`)}>Close</Button>
            <ButtonLink to="/profile#tickets" variant="secondary">
              My tickets
            </ButtonLink>
          </div>
        </div>
      </article>
    </div>
  );
}

/** /lottery_pop (listed by the old site): the lottery page. */
export function LotteryPopRedirect() {
  return <Navigate to="/lottery" replace />;
}
