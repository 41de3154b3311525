import type { Lottery, lotteryEndpoints } from "@diginoor/api/lottery";
import { useState } from "react";
import { useNavigate } from "react-router";
import { useCheckoutOptions } from "../../features/nft/checkout/api.ts";
import { ApiError, callApi } from "../../lib/api.ts";
import { usdCentsToPaise } from "../../lib/format.ts";
import { useCurrentUser } from "../../lib/session.ts";
import { Button } from "../../ui/Button.tsx";
import { Dialog } from "../../ui/Dialog.tsx";
import { Price } from "../../ui/Price.tsx";
import { TextField } from "../../ui/TextField.tsx";

const REGION_KEY = "diginoor.lottery.region";

/**
 * PURCHASE TICKETS on /lottery/:id: 'Number of Tickets?' with minus, plus and a typed count, the total
 * (rupees first), the buyer's region and the rules accepted, then the card or rupee checkout the
 * product offers. The server prices the order (count × ticket price) and checks everything again.
 */
export function PurchaseTickets({ lottery: l }: { lottery: Lottery }) {
  const [open, setOpen] = useState(false);
  const { user } = useCurrentUser();
  const navigate = useNavigate();
  if (l.state !== "open") return null;
  const start = () => {
    if (!user) {
      navigate(`/login?next=${encodeURIComponent(`/lottery/${l.id}`)}`);
      return;
    }
    setOpen(true);
  };
  return (
    <>
      <Button onClick={start} className="lottery-buy">
        PURCHASE TICKETS
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} title="Number of Tickets?">
        {open ? <TicketsForm lottery={l} /> : null}
      </Dialog>
    </>
  );
}

function TicketsForm({ lottery: l }: { lottery: Lottery }) {
  const options = useCheckoutOptions({ fresh: true });
  const cap = l.maxTicketsPerUser ?? 100_000;
  const [typed, setTyped] = useState("1");
  const [region, setRegion] = useState(() => localStorage.getItem(REGION_KEY) ?? "");
  const [accepted, setAccepted] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const count = /^\d{1,6}$/.test(typed) ? Number(typed) : 0;
  const valid = count >= 1 && count <= cap;
  const set = (n: number) => setTyped(String(Math.min(cap, Math.max(1, n))));
  const o = options.data;
  const usdCents = valid ? count * l.ticketPriceCents : 0;
  const paise = o ? usdCentsToPaise(usdCents, o.inrMicrosPerUsd) : null;
  const pay = async (provider: "sandbox" | "stripe" | "cashfree") => {
    setError(null);
    setBusy(provider);
    try {
      const order = await callApi<typeof lotteryEndpoints.createTicketOrder>(
        "POST /api/v1/lotteries/{id}/orders",
        {
          params: { id: l.id },
          body: { count, provider, region: region.trim().toUpperCase(), acceptRules: true },
        },
      );
      localStorage.setItem(REGION_KEY, region.trim().toUpperCase());
      const back = `/lottery_purchased/${l.id}?order=${order.orderId}`;
      if (order.checkoutUrl) window.location.assign(order.checkoutUrl);
      else window.location.assign(back);
    } catch (err) {
      setError(err instanceof ApiError || err instanceof Error ? err.message : "That did not work");
      setBusy(null);
    }
  };
  const ready = valid && accepted && region.trim().length >= 2 && !busy;
  return (
    <div className="lottery-tickets">
      <div className="lottery-tickets__count">
        <Button
          variant="secondary"
          aria-label="One ticket fewer"
          onClick={() => set(count - 1)}
          disabled={count <= 1}
        >
          −
        </Button>
        <input
          aria-label="Number of tickets"
          inputMode="numeric"
          className="lottery-tickets__input tabular"
          value={typed}
          onChange={(e) => setTyped(e.target.value.replace(/[^\d]/g, "").slice(0, 6))}
        />
        <Button
          variant="secondary"
          aria-label="One ticket more"
          onClick={() => set(count + 1)}
          disabled={count >= cap}
        >
          +
        </Button>
      </div>
      {!valid ? (
        <p className="form-error" role="alert">
          {count < 1 ? "At least one ticket." : `At most ${cap} tickets per player in this lottery.`}
        </p>
      ) : null}
      <p className="lottery-tickets__total" data-testid="tickets-total">
        Total: {valid && paise !== null ? <Price usdCents={usdCents} paise={paise} /> : "—"}
      </p>
      <TextField
        label="Your region"
        hint="Where you live, as an ISO 3166 code: IN for India, IN-MH for Maharashtra. Lotteries run only where they are allowed."
        value={region}
        onChange={(e) => setRegion(e.target.value)}
        autoComplete="off"
      />
      <label className="lottery-tickets__rules">
        <input type="checkbox" checked={accepted} onChange={(e) => setAccepted(e.target.checked)} /> I accept
        the rules of this lottery
        {l.rules ? <span className="muted"> ({l.rules})</span> : null}
      </label>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="lottery-tickets__pay">
        {o?.card ? (
          <Button
            disabled={!ready}
            loading={busy === o.card}
            onClick={() => pay(o.card as "sandbox" | "stripe")}
          >
            Pay by card{o.card === "sandbox" ? " (sandbox)" : ""}
          </Button>
        ) : null}
        {o?.rupees ? (
          <Button
            variant="secondary"
            disabled={!ready}
            loading={busy === "cashfree"}
            onClick={() => pay("cashfree")}
          >
            Pay in rupees
          </Button>
        ) : null}
        {o && !o.card && !o.rupees ? (
          <p className="muted">Card payments are not configured on this server.</p>
        ) : null}
      </div>
    </div>
  );
}
