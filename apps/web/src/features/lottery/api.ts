import type { Lottery, LotteryLiveEvent, lotteryEndpoints as api } from "@diginoor/api/lottery";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { callApi } from "../../lib/api.ts";

export const lotteryKeys = {
  list: ["lotteries"] as const,
  one: (id: string) => ["lottery", id] as const,
  winners: ["lottery-winners"] as const,
};

export function useLotteries() {
  return useQuery({
    queryKey: lotteryKeys.list,
    queryFn: ({ signal }) => callApi<typeof api.list>("GET /api/v1/lotteries", { signal }),
  });
}

export function useLotteryWinners() {
  return useQuery({
    queryKey: lotteryKeys.winners,
    queryFn: ({ signal }) => callApi<typeof api.winners>("GET /api/v1/lotteries/winners", { signal }),
  });
}

export function useLottery(id: string | undefined) {
  return useQuery({
    queryKey: lotteryKeys.one(id ?? ""),
    queryFn: ({ signal }) =>
      callApi<typeof api.get>("GET /api/v1/lotteries/{id}", { params: { id: id ?? "" }, signal }),
    enabled: !!id,
    retry: (count, err) => (err as { status?: number }).status !== 404 && count < 2,
    // Waiting for the draw's block: look again now and then (the live stream says when it is drawn too).
    refetchInterval: (q) => (q.state.data?.state === "closed" ? 10_000 : false),
  });
}

/**
 * Follows a lottery's live counts (its public event stream) and writes them into the cached lottery,
 * so the progress bar moves for everyone watching without a reload.
 */
export function useLiveLottery(id: string | undefined) {
  const client = useQueryClient();
  useEffect(() => {
    if (!id || typeof EventSource === "undefined") return;
    const source = new EventSource(`/api/v1/lotteries/${encodeURIComponent(id)}/events`);
    const onUpdate = (e: MessageEvent<string>) => {
      let event: LotteryLiveEvent;
      try {
        event = JSON.parse(e.data) as LotteryLiveEvent;
      } catch {
        return;
      }
      const stateChanged = client.getQueryData<Lottery>(lotteryKeys.one(id))?.state !== event.state;
      client.setQueryData<Lottery>(lotteryKeys.one(id), (old) =>
        old ? { ...old, ticketsSold: event.ticketsSold, players: event.players, state: event.state } : old,
      );
      // A new state brings new public facts (the ticket list hash, the draw): read them.
      if (stateChanged) void client.invalidateQueries({ queryKey: lotteryKeys.one(id) });
    };
    source.addEventListener("lottery.updated", onUpdate as EventListener);
    return () => {
      source.removeEventListener("lottery.updated", onUpdate as EventListener);
      source.close();
    };
  }, [id, client]);
}

/** The lottery's ticket list, exactly as published (the verify page hashes these bytes). */
export async function fetchTicketsCsv(id: string): Promise<Uint8Array> {
  const res = await fetch(`/api/v1/lotteries/${encodeURIComponent(id)}/tickets.csv`);
  if (!res.ok) throw new Error(`The ticket list could not be read (HTTP ${res.status})`);
  return new Uint8Array(await res.arrayBuffer());
}

/** sha256 in the browser (Web Crypto), as 0x-prefixed hex. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as BufferSource);
  return `0x${[...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

export function hexToBytes(hex: string): Uint8Array {
  const clean = hex.startsWith("0x") ? hex.slice(2) : hex;
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(clean.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** The draw, recomputed in the browser: 1 + (uint256(sha256(seed ‖ blockHash ‖ ticketListHash)) mod sold). */
export async function recomputeWinningTicket(
  seed: string,
  blockHash: string,
  ticketListHash: string,
  ticketsSold: number,
): Promise<number> {
  const joined = new Uint8Array(96);
  joined.set(hexToBytes(seed), 0);
  joined.set(hexToBytes(blockHash), 32);
  joined.set(hexToBytes(ticketListHash), 64);
  const digest = await sha256Hex(joined);
  return Number(1n + (BigInt(digest) % BigInt(ticketsSold)));
}
