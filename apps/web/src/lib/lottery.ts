import type { lotteryEndpoints as api } from "@diginoor/api/lottery";
import { useQuery } from "@tanstack/react-query";
import { callApi } from "./api.ts";

/** The signed-in user's lottery tickets per lottery, their numbers and each lottery's result. */
export function useMyTickets(enabled = true) {
  return useQuery({
    queryKey: ["my-lottery-tickets"],
    queryFn: ({ signal }) => callApi<typeof api.myTickets>("GET /api/v1/me/lottery-tickets", { signal }),
    enabled,
  });
}
