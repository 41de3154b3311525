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
import { formatNative, parseNative, roundUpNative } from "./amounts.ts";
import type { ReadyChain } from "./chain.ts";
import { walletErrorMessage } from "./errors.ts";
import { useMarketActions } from "./market.ts";
import { NativeAmount } from "./NativeAmount.tsx";
import "./wallet-ui.css";
import { WalletProgress } from "./WalletProgress.tsx";

export interface AuctionState {
  tokenId: string;
  symbol: string;
  status: "opening" | "open" | "paused" | "ended" | "settled";
  reserveWei: string;
  highestBidWei: string | null;
  highestBidder: string | null;
  minimumBidWei: string;
  endsAt: string | null;
  seller: string;
}

const short = (a: string) => `${a.slice(0, 6)}…${a.slice(-4)}`;

/**
 * An auction on the marketplace contract: the highest bid and the minimum next bid in the native token
 * with their dollar value, the real countdown from the chain's end time, Place a bid (checked against
 * the minimum before the wallet opens), and Settle for anyone once it has ended.
 */
export function AuctionBox({
  chain,
  auction,
  signedIn,
  onSignInNeeded,
  onBidPlaced,
  onChanged,
}: {
  chain: ReadyChain;
  auction: AuctionState;
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
              <NativeAmount wei={auction.highestBidWei} symbol={symbol} />
            ) : (
              <span className="price-none">No bids yet</span>
            )}
          </dd>
        </div>
        <div>
          <dt>Reserve price</dt>
          <dd>
            <NativeAmount wei={auction.reserveWei} symbol={symbol} />
          </dd>
        </div>
      </dl>
      {auction.highestBidder ? (
        <p className="auction-leader">
          {auction.status === "open" ? "Highest bidder" : "Won by"}{" "}
          <code>{short(auction.highestBidder)}</code>
        </p>
      ) : null}
      <div className="nft-clock">
        <p className="nft-clock-label">{auction.status === "open" ? "Auction ends in" : "Auction"}</p>
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
      {auction.status === "open" ? (
        <>
          <p className="auction-min">
            Minimum bid: <NativeAmount wei={auction.minimumBidWei} symbol={symbol} />
          </p>
          <Button size="lg" block onClick={() => (signedIn ? setOpen(true) : onSignInNeeded())}>
            Place a bid
          </Button>
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
      <BidDialog
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
    </div>
  );
}

function BidDialog({
  open,
  onClose,
  auction,
  onBid,
}: {
  open: boolean;
  onClose: () => void;
  auction: AuctionState;
  onBid: (wei: bigint, step: (text: string) => void) => Promise<void>;
}) {
  const { symbol } = auction;
  const minimum = BigInt(auction.minimumBidWei);
  const form = useAppForm({ defaultValues: { bid: roundUpNative(minimum) } });
  const [progress, setProgress] = useState<string | null>(null);
  const value = form.watch("bid");

  function tooLowMessage(): string {
    return auction.highestBidWei
      ? `Please Enter Value Greater than Previous Bid Value ${formatNative(auction.highestBidWei, symbol, 6)} (at least ${formatNative(minimum, symbol, 6)})`
      : `Please Enter Value Greater than the reserve price ${formatNative(auction.reserveWei, symbol, 6)}`;
  }

  function checkBid(text: string): true | string {
    const wei = parseNative(text);
    if (wei === null) return `Enter an amount in ${symbol}, such as ${roundUpNative(minimum)}`;
    return wei < minimum ? tooLowMessage() : true;
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
          <NativeAmount wei={auction.highestBidWei ?? auction.reserveWei} symbol={symbol} />
        </p>
        <TextField
          label={`Your bid (${symbol})`}
          inputMode="decimal"
          autoComplete="off"
          hint={`At least ${formatNative(minimum, symbol, 6)}. Outbid bids are refunded at once.`}
          {...fieldProps(form, "bid", { validate: checkBid })}
        />
        {parseNative(value) !== null ? (
          <p className="bid-preview">
            You bid <NativeAmount wei={parseNative(value) as bigint} symbol={symbol} />
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
      Bidding needs {symbol} in a wallet app (MetaMask or WalletConnect): a bid is held by the auction until
      you are outbid or win.{" "}
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
