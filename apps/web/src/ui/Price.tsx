import { type PriceInput, priceParts } from "@diginoor/api/money";
import { useRates } from "../lib/rates.ts";

/**
 * Every price on the site: rupees first, then dollars, then the crypto amount where crypto is paid
 * ("₹1,260 · $15 · 0.005 ETH"), formatted by packages/api's money module at the server's rates.
 * The first part is the price; the rest is muted beside it (or under it, with `stacked`).
 */
export function Price({
  className,
  stacked = false,
  testId,
  ...price
}: PriceInput & { className?: string; stacked?: boolean; testId?: string }) {
  const rates = useRates();
  const parts = priceParts(price as PriceInput, rates.data);
  const [first, ...rest] = [parts.inr, parts.usd, parts.native].filter((p): p is string => !!p);
  return (
    <span
      className={`price tabular${stacked ? " price--stacked" : ""}${className ? ` ${className}` : ""}`}
      data-price=""
      data-testid={testId}
    >
      <span className="price-main">{first}</span>
      {rest.length > 0 ? (
        <span className="price-alt">
          <span className="price-sep"> · </span>
          {rest.join(" · ")}
        </span>
      ) : null}
    </span>
  );
}
