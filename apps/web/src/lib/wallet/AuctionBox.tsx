import type { orderEndpoints } from "@diginoor/api/orders";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { Hash } from "viem";
import { callApi } from "../api.ts";
import { fieldProps, useAppForm } from "../form.ts";
import { Button } from "../../ui/Button.tsx";
import { Countdown } from "../../ui/Countdown.tsx";
import { Dialog } from "../../ui/Dialog.tsx";
import { TextField } from "../../ui/TextField.tsx";
import { useToast } from "../../ui/Toast.tsx";
import { formatNative, shortAddress } from "../format.ts";
import { AMOUNT_DECIMALS, parseNative, roundUpNative, roundUpWei } from "./amounts.ts";
import type { ReadyChain } from "./chain.ts";
import { walletErrorMessage } from "./errors.ts";
import { useMarketActions } from "./market.ts";
import { Price } from "../../ui/Price.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";
import "./wallet-ui.css";
import { WalletProgress } from "./WalletProgress.tsx";

export interface AuctionState {
  tokenId: string;
  symbol: string;
  status: "opening" | "open" | "paused" | "ended" | "settled";
  reserveWei: string;
  highestBidWei: string | null;
  highestBidder: string | null;
  /** The contract's minimumBid (null while it is read). */
  minimumBidWei: string | null;
  endsAt: string | null;
  seller: string;
}

/**
 * The one minimum bid shown everywhere: the contract's minimumBid rounded up to the decimals a bid is
 * typed with, so the figure shown, the figure suggested and the figure "Bid the minimum" sends agree.
 */
export function shownMinimum(auction: Pick<AuctionState, "minimumBidWei">): bigint | null {
  return auction.minimumBidWei === null ? null : roundUpWei(BigInt(auction.minimumBidWei));
}

/**
 * An auction on the marketplace contract: the highest bid and the contract's minimum next bid (₹, $ and
 * the native token), the real countdown from the chain's end time, Place a bid (checked against the
 * minimum before the wallet opens), Bid the minimum, and Settle for anyone once it has ended.
 */
export function AuctionBox({
  chain,
  auction,
  signedIn,
  onSignInNeeded,
  onBidPlaced,
  onChanged,
  own = false,
}: {
  chain: ReadyChain;
  auction: AuctionState;
  /** The signed-in fan's own auction: no bid buttons (the contract refuses a seller's bid). */
  own?: boolean;
  signedIn: boolean;
  onSignInNeeded: () => void;
  onBidPlaced: (hash: Hash, wei: bigint) => void;
  onChanged: () => void;
}) {
  const actions = useMarketActions(chain);
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [progress, setProgress] = useState<string | null>(null);
  const { symbol } = auction;
  const minimum = shownMinimum(auction);

  async function bidMinimum() {
    if (!signedIn) return onSignInNeeded();
    if (minimum === null) return;
    try {
      const hash = await actions.bid(BigInt(auction.tokenId), minimum, setProgress);
      toast.success("Bid Placed Successfully");
      onBidPlaced(hash, minimum);
    } catch (err) {
      toast.error(walletErrorMessage(err, symbol));
    } finally {
      setProgress(null);
    }
  }

  async function settle() {
    if (!signedIn) return onSignInNeeded();
    try {
      setProgress("Settling the auction..");
      await actions.settle(BigInt(auction.tokenId), setProgress);
      toast.success("Auction settled: the NFT is on its way to the winner");
      onChanged();
    } catch (err) {
      toast.error(walletErrorMessage(err, symbol));
    } finally {
      setProgress(null);
    }
  }

  return (
    <div className="auction-box">
      <dl className="nft-price-grid">
        <div>
          <dt>
            {auction.status === "settled" || auction.status === "ended" ? "Winning bid" : "Current bid"}
          </dt>
          <dd data-testid="auction-highest">
            {auction.highestBidWei ? (
              <Price wei={auction.highestBidWei} symbol={symbol} digits={AMOUNT_DECIMALS} stacked />
            ) : (
              <span className="price-none">No bids yet</span>
            )}
          </dd>
        </div>
        <div>
          <dt>Reserve price</dt>
          <dd data-testid="auction-reserve">
            <Price
              wei={roundUpWei(BigInt(auction.reserveWei))}
              symbol={symbol}
              digits={AMOUNT_DECIMALS}
              stacked
            />
          </dd>
        </div>
      </dl>
      {auction.highestBidder ? (
        <p className="auction-leader">
          {auction.status === "open" ? "Highest bidder" : "Won by"}{" "}
          <code>{shortAddress(auction.highestBidder)}</code>
        </p>
      ) : null}
      <div className="nft-clock">
        <p className="nft-clock-label">
          {auction.status === "open" && auction.endsAt ? "Auction ends in" : "Auction"}
        </p>
        {auction.status === "settled" ? (
          <span className="countdown countdown-ended">Auction settled</span>
        ) : auction.status === "ended" ? (
          // The chain says it is over (its clock may run ahead of ours on a development chain).
          <span className="countdown countdown-ended">Auction ended: waiting for anyone to settle it</span>
        ) : auction.status === "paused" ? (
          <span className="countdown countdown-ended">
            Trading is paused. Bidding reopens when it resumes and stays open 15 minutes after that.
          </span>
        ) : (
          <Countdown endsAt={auction.endsAt} />
        )}
      </div>
      {auction.status === "open" && own ? (
        <p className="auction-note" data-testid="auction-own">
          Your auction: bids appear here as they come. Until the first bid you can cancel it.
        </p>
      ) : auction.status === "open" ? (
        <>
          <p className="auction-min" data-testid="auction-minimum">
            Minimum bid:{" "}
            {minimum === null ? (
              <Skeleton width="8rem" />
            ) : (
              <Price wei={minimum} symbol={symbol} digits={AMOUNT_DECIMALS} />
            )}
          </p>
          <div className="auction-actions">
            <Button
              size="lg"
              onClick={() => (signedIn ? setOpen(true) : onSignInNeeded())}
              disabled={!!progress}
            >
              Place a bid
            </Button>
            <Button
              size="lg"
              variant="secondary"
              onClick={bidMinimum}
              loading={!!progress}
              disabled={minimum === null}
            >
              Bid the minimum
            </Button>
          </div>
          <BidNeedsCrypto symbol={symbol} />
        </>
      ) : auction.status === "ended" ? (
        <Button size="lg" block onClick={settle} loading={!!progress}>
          Settle auction
        </Button>
      ) : auction.status === "opening" ? (
        <p className="nft-panel-note" role="status">
          This auction is being opened on the blockchain; bidding starts in a moment.
        </p>
      ) : null}
      <WalletProgress text={progress} note={false} />
      {minimum === null ? null : (
        <BidDialog
          minimum={minimum}
          open={open}
          onClose={() => setOpen(false)}
          auction={auction}
          onBid={async (wei, step) => {
            const hash = await actions.bid(BigInt(auction.tokenId), wei, step);
            setOpen(false);
            toast.success("Bid Placed Successfully");
            onBidPlaced(hash, wei);
          }}
        />
      )}
    </div>
  );
}

function BidDialog({
  minimum,
  open,
  onClose,
  auction,
  onBid,
}: {
  minimum: bigint;
  open: boolean;
  onClose: () => void;
  auction: AuctionState;
  onBid: (wei: bigint, step: (text: string) => void) => Promise<void>;
}) {
  const { symbol } = auction;
  const minimumText = formatNative(minimum, symbol, AMOUNT_DECIMALS);
  const form = useAppForm({ defaultValues: { bid: roundUpNative(minimum) } });
  const [progress, setProgress] = useState<string | null>(null);
  const value = form.watch("bid");

  function checkBid(text: string): true | string {
    const wei = parseNative(text);
    if (wei === null) return `Enter an amount in ${symbol}, such as ${roundUpNative(minimum)}`;
    return wei < minimum ? `Enter a bid of at least ${minimumText}` : true;
  }

  const submit = form.handleSubmit(async ({ bid }) => {
    try {
      await onBid(parseNative(bid) as bigint, setProgress);
    } catch (err) {
      form.setError("bid", { type: "wallet", message: walletErrorMessage(err, symbol) });
    } finally {
      setProgress(null);
    }
  });

  return (
    <Dialog open={open} onClose={progress ? () => {} : onClose} title="Place a bid">
      <form className="bid-form" onSubmit={submit} noValidate aria-label="Place a bid">
        <p>
          {auction.highestBidWei ? "Latest bid" : "Reserve price"}:{" "}
          <Price
            wei={auction.highestBidWei ?? roundUpWei(BigInt(auction.reserveWei))}
            symbol={symbol}
            digits={AMOUNT_DECIMALS}
          />
        </p>
        <p>
          Minimum bid: <Price wei={minimum} symbol={symbol} digits={AMOUNT_DECIMALS} />
        </p>
        <TextField
          label={`Your bid (${symbol})`}
          inputMode="decimal"
          autoComplete="off"
          hint={`In ${symbol}, at least the minimum bid. Outbid bids are refunded at once.`}
          {...fieldProps(form, "bid", { validate: checkBid })}
        />
        {parseNative(value) !== null ? (
          <p className="bid-preview">
            You bid <Price wei={parseNative(value) as bigint} symbol={symbol} digits={AMOUNT_DECIMALS} />
          </p>
        ) : null}
        <Button type="submit" block loading={!!progress}>
          Proceed to bid
        </Button>
        <WalletProgress text={progress} />
      </form>
    </Dialog>
  );
}

/**
 * Bids are escrowed in the chain's coin, so bidding needs crypto in a wallet app (a passkey wallet's gas
 * is sponsored, its bids are not): said where the bid button is, with the on-ramp when the server has one.
 */
function BidNeedsCrypto({ symbol }: { symbol: string }) {
  const options = useQuery({
    queryKey: ["checkout-options"],
    queryFn: ({ signal }) =>
      callApi<typeof orderEndpoints.checkoutOptions>("GET /api/v1/checkout/options", { signal }),
    staleTime: 5 * 60_000,
  });
  const onramp = options.data?.onrampUrl;
  return (
    <p className="auction-note">
      Bidding needs {symbol} in a wallet app of your own (a browser extension or a mobile wallet): a bid is
      held by the auction until you are outbid or win.{" "}
      {onramp ? (
        <a
          href={onramp.replaceAll("{address}", "").replaceAll("{amount}", "")}
          target="_blank"
          rel="noopener noreferrer"
        >
          Buy crypto with a card
        </a>
      ) : null}
    </p>
  );
}
