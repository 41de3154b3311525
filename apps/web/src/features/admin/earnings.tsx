import type { EarningCurrency, EarningsStatement, earningsEndpoints as api } from "@diginoor/api/earnings";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { callApi, messageOf } from "../../lib/api.ts";
import { formatInr, formatNative, formatUsd } from "../../lib/format.ts";
import { Button } from "../../ui/Button.tsx";
import { QueryState } from "../../ui/QueryState.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";
import { useToast } from "../../ui/Toast.tsx";
import { SectionHead } from "./components.tsx";
import { useAdminList, useConsoleMe } from "./api.ts";

const money = (currency: EarningCurrency, minor: string) =>
  currency === "inr"
    ? formatInr(BigInt(minor))
    : currency === "usd"
      ? formatUsd(BigInt(minor))
      : formatNative(minor, "ETH", 6);

const KIND_LABELS: Record<string, string> = {
  primary_fiat: "Primary sale (card / rupees)",
  primary_wallet: "Primary sale (wallet, credited on chain)",
  resale_royalty: "Royalty on a resale (paid on chain)",
  auction_seller_share: "Primary auction, seller share (owed)",
  auction_royalty: "Primary auction, royalty (paid on chain)",
};

/** The amounts of one row: each currency apart, never added together; "—" when all are zero. */
function Amounts({ t }: { t: Record<EarningCurrency, string> }) {
  const parts = (["inr", "usd", "wei"] as const).filter((c) => t[c] !== "0").map((c) => money(c, t[c]));
  return <>{parts.length ? parts.join(" · ") : "—"}</>;
}

/**
 * Earnings (decision 174): a production house's statement by month, currencies apart, its lines and
 * payouts, a CSV export; administrators choose the house and record payouts (KYC and balance checked
 * by the server, audited).
 */
export function EarningsSection() {
  const me = useConsoleMe(true);
  const isAdmin = me.data?.role === "admin";
  const houses = useAdminList("studios", isAdmin);
  const [chosen, setChosen] = useState<number | null>(null);
  const houseId = isAdmin
    ? (chosen ?? houses.data?.items[0]?.id ?? null)
    : (me.data?.productionHouse?.id ?? null);
  const statement = useQuery({
    queryKey: ["admin", "earnings", houseId],
    queryFn: ({ signal }) =>
      callApi<typeof api.statement>("GET /api/v1/admin/studios/{id}/earnings", {
        params: { id: String(houseId) },
        signal,
      }),
    enabled: houseId !== null,
  });
  return (
    <section aria-label="Earnings">
      <SectionHead
        title="Earnings"
        action={
          houseId !== null ? (
            <a
              className="btn btn-secondary btn-sm"
              href={`/api/v1/admin/studios/${houseId}/earnings.csv`}
              download
            >
              Export CSV
            </a>
          ) : null
        }
      />
      {isAdmin && houses.data ? (
        <label className="admin-earnings__house">
          Production house{" "}
          <select value={houseId ?? ""} onChange={(e) => setChosen(Number(e.target.value))}>
            {houses.data.items.map((h) => (
              <option key={h.id} value={h.id}>
                {h.name}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <QueryState
        query={statement}
        loading={<Skeleton height="10rem" />}
        error={<p>We couldn't load the statement.</p>}
      >
        {(s) => <Statement s={s} canPay={isAdmin} />}
      </QueryState>
    </section>
  );
}

function Statement({ s, canPay }: { s: EarningsStatement; canPay: boolean }) {
  return (
    <div className="admin-earnings">
      <dl className="admin-earnings__totals">
        <div>
          <dt>Earned</dt>
          <dd data-testid="earned">
            <Amounts t={s.totals.earned} />
          </dd>
        </div>
        <div>
          <dt>Held for the studio</dt>
          <dd>
            <Amounts t={s.totals.owed} />
          </dd>
        </div>
        <div>
          <dt>Paid out</dt>
          <dd>
            <Amounts t={s.totals.paidOut} />
          </dd>
        </div>
        <div>
          <dt>Balance owed</dt>
          <dd data-testid="balance">
            <Amounts t={s.totals.balance} />
          </dd>
        </div>
      </dl>
      <table className="admin-earnings__months">
        <caption>{s.productionHouse}: by month (India time)</caption>
        <thead>
          <tr>
            <th scope="col">Month</th>
            <th scope="col">Earned</th>
            <th scope="col">Held</th>
            <th scope="col">Paid out</th>
          </tr>
        </thead>
        <tbody>
          {s.months.length === 0 ? (
            <tr>
              <td colSpan={4}>No sales yet.</td>
            </tr>
          ) : (
            s.months.map((m) => (
              <tr key={m.month}>
                <th scope="row">{m.month}</th>
                <td data-label="Earned">
                  <Amounts t={m.earned} />
                </td>
                <td data-label="Held">
                  <Amounts t={m.owed} />
                </td>
                <td data-label="Paid out">
                  <Amounts t={m.paidOut} />
                </td>
              </tr>
            ))
          )}
        </tbody>
      </table>
      {canPay ? <PayoutForm houseId={s.productionHouseId} /> : null}
      <details className="admin-earnings__lines">
        <summary>
          {s.lines.length} {s.lines.length === 1 ? "sale" : "sales"} and {s.payouts.length}{" "}
          {s.payouts.length === 1 ? "payout" : "payouts"}
        </summary>
        <ul>
          {s.lines.map((l) => (
            <li key={`${l.kind}-${l.reference}-${l.tokenId}`}>
              {l.at.slice(0, 10)} · {KIND_LABELS[l.kind]} · {l.nftId}
              {l.tokenId ? ` #${l.tokenId.length > 12 ? `${l.tokenId.slice(0, 6)}…` : l.tokenId}` : ""} ·{" "}
              {l.platformFeeMinor === "0"
                ? ""
                : `sold for ${money(l.currency, l.grossMinor)}, platform fee ${money(l.currency, l.platformFeeMinor)} · `}
              <strong>{money(l.currency, l.amountMinor)}</strong>
            </li>
          ))}
          {s.payouts.map((p) => (
            <li key={p.id}>
              {p.at.slice(0, 10)} · Payout ({p.reference}) ·{" "}
              <strong>−{money(p.currency, p.amountMinor)}</strong>
            </li>
          ))}
        </ul>
      </details>
    </div>
  );
}

function PayoutForm({ houseId }: { houseId: number }) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const [currency, setCurrency] = useState<EarningCurrency>("inr");
  const [amount, setAmount] = useState("");
  const [reference, setReference] = useState("");
  const pay = useMutation({
    mutationFn: () =>
      callApi<typeof api.recordPayout>("POST /api/v1/admin/studios/{id}/payouts", {
        params: { id: String(houseId) },
        body: { currency, amountMinor: amount.trim(), reference: reference.trim() },
      }),
    onSuccess: () => {
      toast.success("The payout is recorded");
      setAmount("");
      setReference("");
      void queryClient.invalidateQueries({ queryKey: ["admin", "earnings", houseId] });
    },
    onError: (err) => toast.error(messageOf(err, "That did not work")),
  });
  return (
    <form
      className="admin-earnings__payout"
      onSubmit={(e) => {
        e.preventDefault();
        pay.mutate();
      }}
    >
      <h3>Record a payout</h3>
      <label>
        Currency{" "}
        <select value={currency} onChange={(e) => setCurrency(e.target.value as EarningCurrency)}>
          <option value="inr">INR (paise)</option>
          <option value="usd">USD (cents)</option>
          <option value="wei">ETH (wei)</option>
        </select>
      </label>
      <label>
        Amount in minor units{" "}
        <input
          inputMode="numeric"
          pattern="[0-9]+"
          required
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
        />
      </label>
      <label>
        Reference{" "}
        <input required maxLength={200} value={reference} onChange={(e) => setReference(e.target.value)} />
      </label>
      <Button type="submit" size="sm" loading={pay.isPending}>
        Record payout
      </Button>
    </form>
  );
}
