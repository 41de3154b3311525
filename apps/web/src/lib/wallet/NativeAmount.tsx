import { weiToUsdCents } from "@diginoor/api/wallets";
import { formatUsd } from "../format.ts";
import { formatNative } from "./amounts.ts";
import { useRates } from "./chain.ts";
import "./wallet-ui.css";

/** An amount in the chain's native token with its US dollar value beside it. */
export function NativeAmount({ wei, symbol }: { wei: string | bigint; symbol: string }) {
  const rates = useRates();
  const rate = rates.data?.usdMicrosPerToken[symbol];
  const usd = rate ? formatUsd(Number(weiToUsdCents(BigInt(wei), BigInt(rate)))) : null;
  return (
    <span className="native-amount tabular">
      <span>{formatNative(wei, symbol)}</span>
      {usd ? <span className="native-amount-usd"> ≈ {usd}</span> : null}
    </span>
  );
}
