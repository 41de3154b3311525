import { formatInr } from "@diginoor/api/money";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import { tdsPreview } from "./api.ts";
import "./tax.css";

/** The asking price settles for a moment before it is asked about (typing "0.05" is four prices). */
function useSettled<T>(value: T, ms = 300): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const id = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(id);
  }, [value, ms]);
  return settled;
}

/**
 * The s.194S TDS a sale at `priceWei` would carry (decision 176), shown in the sell dialog before the
 * seller confirms. Residents see the amount in rupees and who withholds it; others see nothing.
 */
export function TdsNotice({ priceWei, auction = false }: { priceWei: bigint | null; auction?: boolean }) {
  const price = useSettled(priceWei?.toString() ?? null);
  const preview = useQuery({
    queryKey: ["tds-preview", price],
    queryFn: ({ signal }) => tdsPreview(price as string, signal),
    enabled: price !== null,
    staleTime: 30_000,
  });
  const data = preview.data;
  if (!data?.resident) return null;
  // Paise come as decimal strings (money is never a JSON number).
  const p = {
    ...data,
    valuePaise: BigInt(data.valuePaise),
    thresholdPaise: BigInt(data.thresholdPaise),
    soldThisYearPaise: BigInt(data.soldThisYearPaise),
    tdsPaise: BigInt(data.tdsPaise),
  };
  const pct = `${p.rateBps / 100}%`;
  return (
    <div className="tds-notice" role="status" data-testid="tds-notice">
      <div className="tds-notice__line">
        <span>
          TDS (s.194S, {pct}){auction ? " at the reserve" : ""}
        </span>
        <strong className="tabular" data-testid="tds-amount">
          {formatInr(p.tdsPaise)}
        </strong>
      </div>
      <p className="tds-notice__text">
        {p.tdsPaise > 0n
          ? `Your sales this financial year (${p.financialYear}) are ${formatInr(p.soldThisYearPaise)}; with this sale worth ${formatInr(p.valuePaise)} they pass ${formatInr(p.thresholdPaise)}, so ${pct} TDS applies. Bought by card or UPI, Diginoor deposits it for you; bought by a wallet, nobody can withhold it on chain: it is in your tax statement for your return.`
          : `No TDS: your sales this financial year (${p.financialYear}), this one included (${formatInr(p.valuePaise)}), stay within ${formatInr(p.thresholdPaise)}.`}{" "}
        <Link to="/profile/edit_profile#tax">Tax statements</Link>
      </p>
    </div>
  );
}
