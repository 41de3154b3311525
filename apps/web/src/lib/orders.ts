import type { OrderState, orderEndpoints } from "@diginoor/api/orders";
import type { PriceInput } from "@diginoor/api/money";
import { useQuery } from "@tanstack/react-query";
import { callApi } from "./api.ts";
import { useLiveFallback } from "./live-streams.ts";

/** States an order never leaves. */
export const FINAL_ORDER_STATES: ReadonlySet<OrderState> = new Set([
  "fulfilled",
  "failed",
  "expired",
  "cancelled",
  "refunded",
  "refund_failed",
]);

/**
 * The signed-in user's orders, newest first (every provider): the user's event stream says when one
 * moves; read again now and then while one is still open and the stream is down.
 */
export function useMyOrders(enabled = true) {
  const fallback = useLiveFallback("user");
  return useQuery({
    queryKey: ["orders"],
    queryFn: ({ signal }) => callApi<typeof orderEndpoints.listOrders>("GET /api/v1/orders", { signal }),
    enabled,
    refetchInterval: (q) =>
      q.state.data?.items.some((o) => !FINAL_ORDER_STATES.has(o.state)) ? fallback : false,
  });
}

/** What an order charged, as ui/Price shows it: its dollars, with its rupees or its crypto when paid so. */
export function orderPrice(o: {
  usdCents: number;
  payCurrency: "usd" | "inr" | null;
  payAmountMinor: number | null;
  priceWei: string | null;
  symbol: string | null;
}): PriceInput {
  return {
    usdCents: o.usdCents,
    paise: o.payCurrency === "inr" ? o.payAmountMinor : null,
    wei: o.priceWei,
    symbol: o.symbol,
  };
}
