import { useParams, useSearchParams } from "react-router";
import { useNft } from "../../lib/catalogue/nft.ts";
import { useDocumentTitle } from "../../lib/hooks.ts";
import { useChainInfo } from "../../lib/wallet/chain.ts";
import { Price } from "../../ui/Price.tsx";
import { ButtonLink, buttonClass } from "../../ui/Button.tsx";
import { Countdown } from "../../ui/Countdown.tsx";
import { NotFoundContent } from "../../ui/NotFound.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";
import { useNftAuction } from "../../features/nft/checkout/api.ts";
import { TransactionLink, tweetUrl } from "../../features/nft/components/TransactionLink.tsx";
import "./confirmation.css";

/** /Bid_conformation/:nftId: after a bid, the auction as it stands, with Tweet it and My Bids. */
export function BidConfirmationPage() {
  const { nftId = "" } = useParams();
  const [params] = useSearchParams();
  const tx = params.get("tx");
  const nft = useNft(nftId);
  const auction = useNftAuction(nftId);
  const chain = useChainInfo();
  useDocumentTitle("Happy you Bid an NFT!");

  if (nft.isPending) {
    return (
      <div className="container section confirmation" data-loading="">
        <Skeleton height={360} radius="var(--radius-lg)" />
      </div>
    );
  }
  if (!nft.data) return <NotFoundContent title="NFT not found" />;
  const a = auction.data;
  const symbol = a?.symbol ?? chain.data?.nativeSymbol ?? "ETH";
  return (
    <div className="container section confirmation">
      <article className="confirmation-card">
        <img
          src={nft.data.imageUrl}
          alt={nft.data.title}
          className="confirmation-art"
          width={320}
          height={400}
        />
        <div className="confirmation-body">
          <h1>Happy you Bid an NFT!</h1>
          <p>
            Congratulations: your bid on <strong>{nft.data.title}</strong> is on the blockchain. If someone
            outbids you, your bid comes back to your wallet at once and we let you know.
          </p>
          {a ? (
            <dl className="checkout-lines">
              <div>
                <dt>Highest bid</dt>
                <dd>{a.highestBidWei ? <Price wei={a.highestBidWei} symbol={symbol} /> : "—"}</dd>
              </div>
              <div>
                <dt>Auction ends in</dt>
                <dd>
                  <Countdown endsAt={a.endsAt} compact />
                </dd>
              </div>
            </dl>
          ) : null}
          {tx && /^0x[0-9a-fA-F]{64}$/.test(tx) ? (
            <TransactionLink chainId={chain.data?.chainId ?? null} hash={tx} />
          ) : null}
          <div className="confirmation-actions">
            <a
              className={buttonClass({ variant: "secondary" })}
              href={tweetUrl(`I just bid on ${nft.data.title} on Diginoor!`, `/nftdetail/${nftId}`)}
              target="_blank"
              rel="noopener noreferrer"
            >
              Tweet it
            </a>
            <ButtonLink to="/profile">My Bids</ButtonLink>
            <ButtonLink to={`/nftdetail/${nftId}`} variant="ghost">
              Back to the auction
            </ButtonLink>
          </div>
        </div>
      </article>
    </div>
  );
}
