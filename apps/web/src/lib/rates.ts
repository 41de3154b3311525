import type { quoteEndpoints } from "@diginoor/api/wallets";
import { useQuery } from "@tanstack/react-query";
import { callApi } from "./api.ts";

/** GET /api/v1/rates: dollars per token and rupees per dollar, the rates every price is shown at. */
export function useRates() {
  return useQuery({
    queryKey: ["rates"],
    queryFn: ({ signal }) => callApi<typeof quoteEndpoints.getRates>("GET /api/v1/rates", { signal }),
    staleTime: 60_000,
  });
}
