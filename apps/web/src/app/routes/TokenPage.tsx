import type { NftDetail } from "@diginoor/api/catalogue";
import type { Token, tokenEndpoints } from "@diginoor/api/chain";
import { renditionSrcSet } from "@diginoor/api/media";
import { diginoorCollectibleAbi } from "@diginoor/contracts/generated/diginoorCollectible";
import { diginoorMarketplaceAbi } from "@diginoor/contracts/generated/diginoorMarketplace";
import { saleSplit } from "@diginoor/contracts/proceeds";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { Link, useLocation, useNavigate, useParams } from "react-router";
import type { Address } from "viem";
import { useBlock, useReadContract } from "wagmi";
import { ApiError, callApi } from "../../lib/api.ts";
import { pollEvery, useLiveFallback } from "../../lib/live-streams.ts";
import { useNft } from "../../lib/catalogue/nft.ts";
import { shortAddress, tierLabel } from "../../lib/format.ts";
import { useDocumentTitle } from "../../lib/hooks.ts";
import { useCurrentUser } from "../../lib/session.ts";
import { ResaleCheckout, useCardFirst } from "../../features/nft/checkout/HostedCheckout.tsx";
import { TdsNotice } from "../../features/tax/TdsNotice.tsx";
import { WhereItLives } from "../../features/nft/components/WhereItLives.tsx";
import { AuctionBox } from "../../lib/wallet/AuctionBox.tsx";
import { parseNative } from "../../lib/wallet/amounts.ts";
import { type ReadyChain, useLinkedWallets } from "../../lib/wallet/chain.ts";
import { walletErrorMessage } from "../../lib/wallet/errors.ts";
import { useMarketActions } from "../../lib/wallet/market.ts";
import { SendToOwnWallet } from "../../lib/wallet/SendToOwnWallet.tsx";
import { OwnerListing } from "../../lib/wallet/OwnerListing.tsx";
import { WithWallet } from "../../lib/wallet/WithWallet.tsx";
import { Button } from "../../ui/Button.tsx";
import { Dialog } from "../../ui/Dialog.tsx";
import { ErrorState } from "../../ui/ErrorState.tsx";
import { Price } from "../../ui/Price.tsx";
import { NotFoundContent } from "../../ui/NotFound.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";
import { TextField } from "../../ui/TextField.tsx";
import { TierBadge } from "../../ui/TierBadge.tsx";
import { useToast } from "../../ui/Toast.tsx";
import "./token.css";
import { WalletProgress } from "../../lib/wallet/WalletProgress.tsx";

/** How often a token is read while our own listing or auction waits for the indexer. */
const PENDING_POLL_MS = 3000;
const same = (a: string | null | undefined, b: string) => !!a && a.toLowerCase() === b.toLowerCase();

function useToken(tokenId: string) {
  const fallback = useLiveFallback("market");
  return useQuery({
    queryKey: ["token", tokenId],
    queryFn: ({ signal }) =>
      callApi<typeof tokenEndpoints.getToken>("GET /api/v1/tokens/{tokenId}", {
        params: { tokenId },
        signal,
      }),
    retry: (count, err) =>
      !(err instanceof ApiError && (err.status === 404 || err.status === 400)) && count < 2,
    refetchInterval: fallback,
  });
}

/**
 * One token on the chain. Its holder sees the sale page (/nftshowcase/:id from the profile): Put to Sale
 * (Sell Instantly or Create Auction), change the price, remove the listing. Everyone else sees the
 * buy-or-bid page (/nfttransfer/:id, /transfer/:id): Buy NFT for a listing, Place a bid for an auction.
 */
export function TokenPage() {
  const { tokenId = "" } = useParams();
  const token = useToken(tokenId);
  const nft = useNft(token.data?.nftId ?? "", { enabled: !!token.data?.nftId });
  useDocumentTitle(nft.data ? `${nft.data.title} #${token.data?.edition ?? ""}` : "NFT");

  const status = token.error instanceof ApiError ? token.error.status : undefined;
  if (status === 404 || status === 400)
    return (
      <NotFoundContent title="NFT not found" message="No token with this id exists on our marketplace." />
    );
  if (token.error) {
    return (
      <div className="container section">
        <ErrorState title="We couldn't load this NFT" error={token.error} onRetry={() => token.refetch()} />
      </div>
    );
  }
  if (!token.data || (token.data.nftId && !nft.data)) {
    return (
      <div className="container token-layout" data-loading="">
        <Skeleton height="auto" style={{ aspectRatio: "4 / 5" }} radius="var(--radius-lg)" />
        <Skeleton height={320} radius="var(--radius-lg)" />
      </div>
    );
  }
  return <TokenView token={token.data} nft={nft.data} />;
}

function TokenView({ token, nft }: { token: Token; nft: NftDetail | undefined }) {
  const title = nft ? `${nft.title} #${token.edition}` : `Token #${token.tokenId}`;
  return (
    <div className="container token-layout">
      <div className={`token-media tier-${nft?.tier ?? "common"}`}>
        {nft ? (
          <img
            {...(renditionSrcSet(nft.imageUrl) ?? { src: nft.imageUrl })}
            sizes="(min-width: 768px) 45vw, 100vw"
            alt={nft.title}
            width={640}
            height={800}
            fetchPriority="high"
          />
        ) : null}
      </div>
      <div className="token-info">
        {nft ? <TierBadge tier={nft.tier} /> : null}
        <h1>{title}</h1>
        {nft ? (
          <p className="muted">
            {nft.film.name} · {nft.celebrity.name} ·{" "}
            <Link to={`/nftdetail/${nft.id}`}>About this collectible</Link>
          </p>
        ) : null}
        <p className="token-owner">
          Owned by <code>{shortAddress(token.auction ? token.auction.seller : token.owner)}</code>
        </p>
        <section className="nft-panel" aria-label="Buy, bid or sell">
          <WithWallet
            loading={<Skeleton height={200} />}
            unavailable={<p className="nft-panel-note">Trading is unavailable on this server right now.</p>}
          >
            {(chain) => <TradePanel chain={chain} token={token} title={title} />}
          </WithWallet>
        </section>
        {nft ? (
          <dl className="token-props">
            <div>
              <dt>Rarity</dt>
              <dd>{tierLabel[nft.tier]}</dd>
            </div>
            <div>
              <dt>Edition</dt>
              <dd>
                {token.edition} of {nft.editionSize}
              </dd>
            </div>
            <div>
              <dt>Royalty to {nft.productionHouse.name}</dt>
              <dd>{nft.royaltyBps / 100}% of every resale</dd>
            </div>
            <div>
              <dt>Token id</dt>
              <dd>
                <code>{token.tokenId}</code>
              </dd>
            </div>
          </dl>
        ) : null}
        {nft?.description ? <p>{nft.description}</p> : null}
        <WhereItLives tokenId={token.tokenId} />
      </div>
    </div>
  );
}

function TradePanel({ chain, token, title }: { chain: ReadyChain; token: Token; title: string }) {
  const { user } = useCurrentUser();
  const linked = useLinkedWallets(!!user);
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const toast = useToast();
  const actions = useMarketActions(chain);
  // A fan whose way to pay is the card (no wallet app, or a passkey wallet): the card comes forward.
  const cardFirst = useCardFirst();
  const [progress, setProgress] = useState<string | null>(null);
  // Listed or put up for auction on the chain, not yet seen by the indexer: "Listing…", no second offer.
  const [pending, setPending] = useState<"listing" | "auction" | null>(null);
  const symbol = chain.nativeSymbol ?? "ETH";
  const tokenId = BigInt(token.tokenId);
  const holder = token.auction ? token.auction.seller : token.owner;
  const mine = (linked.data?.items ?? []).some((w) => same(holder, w.address));
  const minimum = useReadContract({
    address: chain.marketplace as Address,
    abi: diginoorMarketplaceAbi,
    functionName: "minimumBid",
    args: [tokenId],
    chainId: chain.chainId,
    query: { enabled: !!token.auction && !token.auction.settled, refetchInterval: useLiveFallback("market") },
  });
  // The minimum bid moves with each bid: read again whenever the token is (the market stream says when).
  const refetchMinimum = minimum.refetch;
  useEffect(() => {
    if (token.auction && !token.auction.settled) void refetchMinimum();
  }, [token.auction, refetchMinimum]);
  // Deadlines are in the chain's time (ahead of ours on a development chain whose time was advanced).
  const block = useBlock({ chainId: chain.chainId, watch: true });
  const chainNow = Math.max(Date.now(), block.data ? Number(block.data.timestamp) * 1000 : 0);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["token", token.tokenId] });
  const signIn = () => navigate(`/login?next=${encodeURIComponent(location.pathname)}&intent=buy`);

  async function act(run: () => Promise<unknown>, done: string) {
    try {
      await run();
      toast.success(done);
      await refresh();
    } catch (err) {
      toast.error(walletErrorMessage(err, symbol));
    } finally {
      setProgress(null);
    }
  }

  const indexed = pending === "listing" ? !!token.listing : pending === "auction" ? !!token.auction : true;
  useEffect(() => {
    if (pending && indexed) setPending(null);
  }, [pending, indexed]);
  // Our own transaction is on the chain; until the indexer has read it, look every PENDING_POLL_MS too,
  // besides the market stream's event (a stream reconnecting just then would miss it).
  useEffect(() => {
    const every = pending ? pollEvery(PENDING_POLL_MS) : false;
    if (every === false) return;
    const timer = setInterval(
      () => void queryClient.invalidateQueries({ queryKey: ["token", token.tokenId] }),
      every,
    );
    return () => clearInterval(timer);
  }, [pending, queryClient, token.tokenId]);

  if (token.hidden) {
    return (
      <p className="nft-panel-note" role="status">
        This NFT has been removed from the Diginoor marketplace by its studio (the terms' suspension or
        voiding), so it cannot be bought, bid on or listed here.
      </p>
    );
  }

  if (token.auction && !token.auction.settled) {
    const a = token.auction;
    const ended = a.endsAt !== null && Date.parse(a.endsAt) <= chainNow;
    return (
      <>
        <AuctionBox
          chain={chain}
          auction={{
            tokenId: token.tokenId,
            symbol,
            status: ended ? "ended" : "open",
            reserveWei: a.reserveWei,
            highestBidWei: a.highestBidWei,
            highestBidder: a.highestBidder,
            minimumBidWei: minimum.data === undefined ? null : minimum.data.toString(),
            endsAt: a.endsAt,
            seller: a.seller,
          }}
          own={mine}
          signedIn={!!user}
          onSignInNeeded={signIn}
          onChanged={refresh}
          onBidPlaced={() => void refresh()}
        />
        {mine && !a.highestBidder ? (
          <Button
            variant="ghost"
            loading={!!progress}
            onClick={() => act(() => actions.cancelAuction(tokenId, setProgress), "Auction cancelled")}
          >
            Cancel auction
          </Button>
        ) : null}
      </>
    );
  }

  if (token.listing) {
    return (
      <div className="trade">
        <p className="trade-price">
          Price: <Price wei={token.listing.priceWei} symbol={symbol} testId="listing-price" />
        </p>
        {mine ? <TdsNotice priceWei={BigInt(token.listing.priceWei)} /> : null}
        {mine ? (
          <OwnerListing
            onChangePrice={(wei) =>
              act(() => actions.updatePrice(tokenId, wei, setProgress), "Price updated")
            }
            onRemove={() =>
              act(() => actions.cancelListing(tokenId, setProgress), "Removed from the marketplace")
            }
            busy={!!progress}
            priceNotice={(wei) => <TdsNotice priceWei={wei} />}
          />
        ) : (
          <Button
            size="lg"
            block
            variant={cardFirst ? "secondary" : "primary"}
            loading={!!progress}
            onClick={() =>
              user
                ? act(
                    () => actions.buy(tokenId, BigInt(token.listing!.priceWei), setProgress),
                    "NFT purchase completed",
                  )
                : signIn()
            }
          >
            Buy NFT
          </Button>
        )}
        <WalletProgress text={progress} note={false} />
        {!mine && token.nftId ? (
          <ResaleCheckout
            nftId={token.nftId}
            listing={{ tokenId: token.tokenId, priceWei: token.listing.priceWei }}
            symbol={symbol}
          />
        ) : null}
      </div>
    );
  }

  if (pending) {
    return (
      <p className="trade-pending" role="status" data-testid="trade-pending">
        <span className="spinner" aria-hidden="true" />
        {pending === "listing" ? "Listing…" : "Opening the auction…"} It is on the blockchain; this page shows
        it as soon as our marketplace has read it.
      </p>
    );
  }

  if (mine) {
    const inPasskeyWallet = (linked.data?.items ?? []).some(
      (w) => w.kind === "passkey" && same(holder, w.address),
    );
    return (
      <>
        <PutToSale
          chain={chain}
          tokenId={tokenId}
          title={title}
          symbol={symbol}
          busy={!!progress}
          progress={progress}
          onSell={(wei) =>
            act(async () => {
              await actions.list(tokenId, wei, setProgress);
              setPending("listing");
            }, "NFT Listed on Sale")
          }
          onAuction={(wei, days) =>
            act(async () => {
              await actions.createAuction(tokenId, wei, days, setProgress);
              setPending("auction");
            }, "Auction created")
          }
        />
        {inPasskeyWallet ? (
          <SendToOwnWallet
            title={title}
            busy={!!progress}
            onSend={(to) =>
              act(() => actions.sendToOwnWallet(tokenId, to, setProgress), "NFT sent to your wallet")
            }
          />
        ) : null}
      </>
    );
  }
  return <p className="nft-panel-note">This NFT is not for sale right now.</p>;
}

/**
 * What the seller receives from a sale at `priceWei`: the contract's split (the token's royalty and the
 * marketplace's fee, read from the chain), each line in ₹, $ and the native token.
 */
function Proceeds({
  chain,
  tokenId,
  priceWei,
  symbol,
  auction,
}: {
  chain: ReadyChain;
  tokenId: bigint;
  priceWei: bigint | null;
  symbol: string;
  auction: boolean;
}) {
  const fee = useReadContract({
    address: chain.marketplace as Address,
    abi: diginoorMarketplaceAbi,
    functionName: "feeBps",
    chainId: chain.chainId,
  });
  const info = useReadContract({
    address: chain.collectible as Address,
    abi: diginoorCollectibleAbi,
    functionName: "tokenInfo",
    args: [tokenId],
    chainId: chain.chainId,
  });
  if (priceWei === null) return null;
  if (fee.data === undefined || !info.data) return <Skeleton height={96} />;
  const split = saleSplit(priceWei, fee.data, info.data.royaltyBps);
  const pct = (bps: number) => `${bps / 100}%`;
  return (
    <dl className="proceeds" aria-label={auction ? "At the reserve price" : "What you receive"}>
      <div>
        <dt>{auction ? "Reserve price" : "Price"}</dt>
        <dd>
          <Price wei={priceWei} symbol={symbol} digits={6} stacked />
        </dd>
      </div>
      <div>
        <dt>Studio royalty ({pct(info.data.royaltyBps)})</dt>
        <dd>
          − <Price wei={split.royaltyAmount} symbol={symbol} digits={6} stacked />
        </dd>
      </div>
      <div>
        <dt>Marketplace fee ({pct(fee.data)})</dt>
        <dd>
          − <Price wei={split.platformFee} symbol={symbol} digits={6} stacked />
        </dd>
      </div>
      <div className="proceeds-total">
        <dt>{auction ? "You receive at the reserve" : "You receive"}</dt>
        <dd>
          <Price wei={split.sellerProceeds} symbol={symbol} digits={6} stacked testId="you-receive" />
        </dd>
      </div>
    </dl>
  );
}

function PutToSale({
  chain,
  tokenId,
  title,
  symbol,
  busy,
  progress,
  onSell,
  onAuction,
}: {
  chain: ReadyChain;
  tokenId: bigint;
  title: string;
  symbol: string;
  busy: boolean;
  progress: string | null;
  onSell: (wei: bigint) => Promise<void>;
  onAuction: (wei: bigint, days: number) => Promise<void>;
}) {
  const [open, setOpen] = useState<"price" | "auction" | null>(null);
  const [price, setPrice] = useState("");
  const [days, setDays] = useState("3");
  const [error, setError] = useState<string | null>(null);

  function priceWei(): bigint | null {
    const wei = parseNative(price);
    if (wei === null) setError(`Enter a price in ${symbol} greater than 0`);
    return wei;
  }
  async function sell() {
    const wei = priceWei();
    if (wei === null) return;
    setError(null);
    await onSell(wei);
    setOpen(null);
  }
  async function auction(e: FormEvent) {
    e.preventDefault();
    const wei = priceWei();
    const d = Number(days);
    if (wei === null) return;
    if (!Number.isInteger(d) || d < 1 || d > 30) return setError("Choose between 1 and 30 days");
    setError(null);
    await onAuction(wei, d);
    setOpen(null);
  }
  return (
    <>
      <p className="nft-panel-note">
        You own this NFT. Sell it at a fixed price or put it up for auction; the studio earns its royalty on
        the sale.
      </p>
      <Button size="lg" block onClick={() => setOpen("price")}>
        Put to Sale
      </Button>
      <Dialog
        open={open !== null}
        onClose={busy ? () => {} : () => setOpen(null)}
        title={open === "auction" ? "Create Auction" : `Put ${title} to sale`}
      >
        <form
          className="bid-form"
          onSubmit={
            open === "auction"
              ? auction
              : (e) => {
                  e.preventDefault();
                  void sell();
                }
          }
          noValidate
        >
          <TextField
            label={open === "auction" ? `Reserve price (${symbol})` : `Price (${symbol})`}
            inputMode="decimal"
            required
            value={price}
            onChange={(e) => setPrice(e.target.value)}
            error={error}
          />
          <Proceeds
            chain={chain}
            tokenId={tokenId}
            priceWei={parseNative(price)}
            symbol={symbol}
            auction={open === "auction"}
          />
          <TdsNotice priceWei={parseNative(price)} auction={open === "auction"} />
          {open === "auction" ? (
            <>
              <TextField
                label="Days"
                inputMode="numeric"
                required
                value={days}
                onChange={(e) => setDays(e.target.value)}
                hint="The clock starts with the first bid (1 to 30 days)"
              />
              <Button type="submit" block loading={busy}>
                Create Auction
              </Button>
            </>
          ) : (
            <div className="trade-row">
              <Button type="submit" loading={busy}>
                Sell Instantly
              </Button>
              <Button type="button" variant="secondary" disabled={busy} onClick={() => setOpen("auction")}>
                Create Auction
              </Button>
            </div>
          )}
          <WalletProgress text={progress} />
        </form>
      </Dialog>
    </>
  );
}
