import type { orderEndpoints as orders } from "@diginoor/api/orders";
import type { quoteEndpoints as quotes } from "@diginoor/api/wallets";
import { useQuery } from "@tanstack/react-query";
import { callApi } from "../../../lib/api.ts";
import { pollEvery, useLiveFallback } from "../../../lib/live-streams.ts";
import { FINAL_ORDER_STATES } from "../../../lib/orders.ts";

/** One file per endpoint would be finer; these are only used together, by the checkout. */
export const checkoutApi = {
  quote: (nftId: string) => callApi<typeof quotes.createQuote>("POST /api/v1/quotes", { body: { nftId } }),
  createWalletOrder: (nftId: string, quoteId: string) =>
    callApi<typeof orders.createOrder>("POST /api/v1/orders", {
      body: { nftId, provider: "wallet", quoteId },
    }),
  /**
   * A hosted-checkout order (card: sandbox or Stripe; rupees: Cashfree): pay on the provider's page
   * (checkoutUrl). Cashfree needs an Indian mobile number when the account has none.
   */
  createHostedOrder: (
    nftId: string,
    provider: "sandbox" | "stripe" | "cashfree",
    phone?: string,
    /** A resale: the listing the fan was shown (decision 165); the server refuses it if it changed. */
    listing?: { tokenId: string; priceWei: string },
  ) =>
    callApi<typeof orders.createOrder>("POST /api/v1/orders", {
      body: { nftId, provider, ...(phone ? { phone } : {}), ...(listing ? { listing } : {}) },
    }),
  /** The buyer cancels an unpaid card or rupee order: the edition is released at once (decision 143). */
  cancelOrder: (orderId: string) =>
    callApi<typeof orders.cancelOrder>("POST /api/v1/orders/{orderId}/cancel", { params: { orderId } }),
  reportTransaction: (orderId: string, txHash: string) =>
    callApi<typeof orders.reportTransaction>("POST /api/v1/orders/{orderId}/transaction", {
      params: { orderId },
      body: { txHash },
    }),
};

/**
 * Leaves for the provider's payment page. The page we leave becomes the order's cancel page first, so
 * the browser's Back from the provider comes to it: the order is cancelled there and the edition
 * released, like Abandon or Stripe's cancel link (decision 143). A page restored from the back-forward
 * cache is loaded again, so that page really runs.
 */
export function goToCheckout(o: { nftId: string; orderId: string; checkoutUrl: string }) {
  window.history.replaceState(window.history.state, "", `/paymentstatus/${o.nftId}/${o.orderId}/cancelled`);
  window.addEventListener(
    "pageshow",
    (e) => {
      if (e.persisted) window.location.reload();
    },
    { once: true },
  );
  window.location.assign(o.checkoutUrl);
}

/** How often a minting order's confirmations are read (they grow with blocks, not with events). */
const MINTING_POLL_MS = 4000;

/**
 * An order of the signed-in user, followed live by the user's event stream (order.updated); read
 * again now and then while it is not final and the stream is down. While it is minting, its block
 * confirmations grow with the chain, which sends no event for them: read every MINTING_POLL_MS.
 */
export function useOrder(orderId: string | undefined) {
  const fallback = useLiveFallback("user");
  return useQuery({
    queryKey: ["order", orderId],
    queryFn: ({ signal }) =>
      callApi<typeof orders.getOrder>("GET /api/v1/orders/{orderId}", {
        params: { orderId: orderId ?? "" },
        signal,
      }),
    enabled: !!orderId,
    retry: (count, err) => (err as { status?: number }).status !== 404 && count < 2,
    refetchInterval: (q) => {
      const state = q.state.data?.state;
      if (!state || FINAL_ORDER_STATES.has(state)) return false;
      return state === "minting" ? pollEvery(MINTING_POLL_MS) : fallback;
    },
  });
}

/**
 * The live primary auction of an auction NFT: read again when the market stream says the chain
 * changed (bids are on the chain), polled slowly while it is open and the stream is down.
 */
export function useNftAuction(nftId: string) {
  const fallback = useLiveFallback("market");
  return useQuery({
    queryKey: ["nft-auction", nftId],
    queryFn: ({ signal }) =>
      callApi<typeof orders.getNftAuction>("GET /api/v1/nfts/{id}/auction", {
        params: { id: nftId },
        signal,
      }),
    retry: (count, err) => (err as { status?: number }).status !== 404 && count < 2,
    refetchInterval: (q) => (q.state.data?.status === "settled" ? false : fallback),
  });
}

/** What this server offers at checkout (card, rupees, 'Buy crypto'), and the USD→INR rate. */
export function useCheckoutOptions({ fresh = false }: { fresh?: boolean } = {}) {
  return useQuery({
    queryKey: ["checkout-options"],
    queryFn: ({ signal }) =>
      callApi<typeof orders.checkoutOptions>("GET /api/v1/checkout/options", { signal }),
    staleTime: 5 * 60_000,
    // The checkout reads the providers and the rupee rate again when it opens: the page's copy may
    // have come with the server-rendered page minutes ago.
    refetchOnMount: fresh ? "always" : true,
  });
}
