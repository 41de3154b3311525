import type { NftDetail } from "@diginoor/api/catalogue";
import { useQueryClient } from "@tanstack/react-query";
import { useLocation, useNavigate } from "react-router";
import { AuctionBox } from "../../../lib/wallet/AuctionBox.tsx";
import { WithWallet } from "../../../lib/wallet/WithWallet.tsx";
import { useCurrentUser } from "../../../lib/session.ts";
import { Button } from "../../../ui/Button.tsx";
import { Skeleton } from "../../../ui/Skeleton.tsx";
import { useNftAuction } from "./api.ts";

/** The live on-chain auction of a catalogue NFT (its current edition), with bidding. */
export default function PrimaryAuction({ nft }: { nft: NftDetail }) {
  const auction = useNftAuction(nft.id);
  const { user } = useCurrentUser();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const loading = <Skeleton height={220} radius="var(--radius-lg)" />;

  if (auction.isPending) return loading;
  if (auction.error || !auction.data) {
    return (
      <>
        <p className="nft-panel-note" role="status">
          {(auction.error as { status?: number } | null)?.status === 404
            ? "This auction opens on the blockchain shortly. Check back in a few minutes."
            : "We couldn't load this auction right now. Please refresh the page."}
        </p>
        <Button size="lg" block disabled>
          Place a bid
        </Button>
      </>
    );
  }
  const a = auction.data;
  return (
    <WithWallet
      loading={loading}
      unavailable={<p className="nft-panel-note">Bidding is unavailable on this server right now.</p>}
    >
      {(chain) => (
        <AuctionBox
          chain={chain}
          auction={a}
          signedIn={!!user}
          onSignInNeeded={() =>
            navigate(`/login?next=${encodeURIComponent(location.pathname + location.search)}&intent=bid`)
          }
          onChanged={() => queryClient.invalidateQueries({ queryKey: ["nft-auction", nft.id] })}
          onBidPlaced={(hash) => {
            void queryClient.invalidateQueries({ queryKey: ["nft-auction", nft.id] });
            navigate(`/Bid_conformation/${nft.id}?tx=${hash}`);
          }}
        />
      )}
    </WithWallet>
  );
}
