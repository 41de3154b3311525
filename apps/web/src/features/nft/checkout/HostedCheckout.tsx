import type { NftDetail } from "@diginoor/api/catalogue";
import type { CheckoutOptions } from "@diginoor/api/orders";
import { useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { Link, useNavigate } from "react-router";
import { ApiError } from "../../../lib/api.ts";
import { formatInr, formatUsd } from "../../../lib/format.ts";
import { useCurrentUser } from "../../../lib/session.ts";
import {
  fetchLinkedWallets,
  useChainInfo,
  useLinkedWallets,
  walletsQueryKey,
} from "../../../lib/wallet/chain.ts";
import { createPasskeyWallet, passkeysSupported } from "../../../lib/wallet/passkey.ts";
import { passkeyErrorMessage, tryAgainLabel } from "../../../lib/wallet/passkey-errors.ts";
import { Price } from "../../../ui/Price.tsx";
import { Button } from "../../../ui/Button.tsx";
import { TextField } from "../../../ui/TextField.tsx";
import { checkoutApi, goToCheckout, useCheckoutOptions } from "./api.ts";
import { usdCentsToPaise } from "../../../lib/format.ts";
// The checkout's styles, also where it is shown outside the NFT page (a resale listing on the token page).
import "../routes/nft.css";

type Reason =
  | "wallet_required"
  | "phone_required"
  | "phone_invalid"
  | "open_order"
  | "unpaid_holds_limit"
  | "listing_gone"
  | "listing_changed"
  | "own_listing"
  | undefined;

/**
 * The hosted-checkout choices under the wallet checkout (decision 142), each shown only when the
 * server offers it: card (Stripe, or the sandbox outside production), rupees (Cashfree: UPI, cards,
 * net banking) and 'Buy crypto' (the configured on-ramp). Prices in USD and INR come from the server.
 */
export function HostedCheckout({ nft, first = false }: { nft: NftDetail; first?: boolean }) {
  const options = useCheckoutOptions({ fresh: true });
  const cardFirst = useCardFirst();
  const o = options.data;
  if (!o || (!o.card && !o.rupees && !o.onrampUrl)) return null;
  const paise = usdCentsToPaise(nft.priceUsdCents, o.inrMicrosPerUsd);
  const price = <Price usdCents={nft.priceUsdCents} paise={paise} />;
  return (
    <div className={first ? "checkout" : "checkout checkout-card"}>
      {first ? null : <p className="checkout-or">or pay with money</p>}
      {o.card ? (
        <HostedButton
          nftId={nft.id}
          provider={o.card}
          primary={cardFirst}
          label={
            <>
              Pay by card{o.card === "sandbox" ? " (sandbox)" : ""} · {price}
            </>
          }
          note={
            o.cardCurrency === "usd"
              ? `Charged in US dollars: ${formatUsd(nft.priceUsdCents)}. Your bank converts it to rupees at its own rate.`
              : `Charged in rupees: ${formatInr(paise)}.`
          }
        />
      ) : null}
      {o.rupees ? (
        <HostedButton
          nftId={nft.id}
          provider={o.rupees}
          label={<>Pay in rupees · {price}</>}
          note={`UPI, cards or net banking, with Cashfree. Charged in rupees: ${formatInr(paise)}.`}
        />
      ) : null}
      <PasskeyWalletNote />
      <p className="checkout-note">
        You pay on the provider's page; the NFT is minted to the wallet that receives your purchases.
        {o.rupees ? (
          <span data-price-note="">
            {" "}
            Rupee price at {formatInr(usdCentsToPaise(100, o.inrMicrosPerUsd))} to the dollar.
          </span>
        ) : null}
      </p>
      {o.onrampUrl ? <BuyCrypto template={o.onrampUrl} usdCents={nft.priceUsdCents} /> : null}
    </div>
  );
}

/**
 * Card and rupee checkout of a fan's resale listing (decision 165): the same choices as a primary sale,
 * priced from the listing at the server's rates (rupees first); once paid, Diginoor buys the listing on
 * chain for the fan and sends the token to their wallet, or refunds them if the listing changed.
 */
export function ResaleCheckout({
  nftId,
  listing,
  symbol,
}: {
  nftId: string;
  listing: { tokenId: string; priceWei: string };
  symbol: string;
}) {
  const options = useCheckoutOptions({ fresh: true });
  const cardFirst = useCardFirst();
  const o = options.data;
  if (!o || (!o.card && !o.rupees)) return null;
  const price = <Price wei={listing.priceWei} symbol={symbol} />;
  return (
    <div className="checkout checkout-card" data-testid="resale-checkout">
      <p className="checkout-or">or pay with money</p>
      {o.card ? (
        <HostedButton
          nftId={nftId}
          listing={listing}
          provider={o.card}
          primary={cardFirst}
          label={
            <>
              Pay by card{o.card === "sandbox" ? " (sandbox)" : ""} · {price}
            </>
          }
          note={`Charged in ${o.cardCurrency === "usd" ? "US dollars" : "rupees"} at today's rate when you start paying.`}
        />
      ) : null}
      {o.rupees ? (
        <HostedButton
          nftId={nftId}
          listing={listing}
          provider={o.rupees}
          label={<>Pay in rupees · {price}</>}
          note="UPI, cards or net banking, with Cashfree, in rupees at today's rate."
        />
      ) : null}
      <PasskeyWalletNote />
      <p className="checkout-note">
        Once you have paid, Diginoor buys this listing for you on the blockchain (the seller is paid as in any
        sale) and sends the NFT to the wallet that receives your purchases. If the seller removes it or
        changes its price first, you get your money back.
      </p>
    </div>
  );
}

function HostedButton({
  nftId,
  listing,
  provider,
  label,
  note,
  primary = false,
}: {
  nftId: string;
  listing?: { tokenId: string; priceWei: string };
  provider: NonNullable<CheckoutOptions["card"] | CheckoutOptions["rupees"]>;
  label: ReactNode;
  note?: string;
  /** The fan's way to pay (no wallet app, or purchases go to the passkey wallet): the filled button. */
  primary?: boolean;
}) {
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<{
    message: string;
    reason: Reason;
    orderId?: string;
    /** A passkey step failed (cancelled fingerprint, timeout…): offered again in one tap. */
    retry?: boolean;
  } | null>(null);
  const [phone, setPhone] = useState("");
  const askPhone = error?.reason === "phone_required" || error?.reason === "phone_invalid";
  const ensurePasskeyWallet = useEnsurePasskeyWallet();
  const navigate = useNavigate();

  async function pay() {
    setBusy(true);
    setError(null);
    try {
      // A fan without a wallet gets the passkey wallet here: no extension, no seed phrase (decision 160).
      await ensurePasskeyWallet(setStatus);
      setStatus("Opening the payment page…");
      const o = await checkoutApi.createHostedOrder(nftId, provider, askPhone ? phone : undefined, listing);
      if (!o.checkoutUrl) throw new Error("This order is no longer waiting for payment");
      goToCheckout({ nftId, orderId: o.orderId, checkoutUrl: o.checkoutUrl });
    } catch (err) {
      setBusy(false);
      setStatus(null);
      const details =
        err instanceof ApiError
          ? (err.details as { reason?: Reason; orderId?: string } | undefined)
          : undefined;
      // A second tab or a double-click: the fan's open order of this NFT is shown, never a second one.
      if (details?.reason === "open_order" && details.orderId) {
        navigate(`/confirmation/${nftId}/${details.orderId}`);
        return;
      }
      // A passkey refusal reads in plain words with a retry, never the browser's text (issue 35 item 2).
      const passkey = err instanceof ApiError ? undefined : passkeyErrorMessage(err);
      setError({
        message: passkey ?? (err instanceof Error ? err.message : "We couldn't start the payment; try again"),
        reason: details?.reason,
        orderId: details?.orderId,
        retry: passkey !== undefined,
      });
    }
  }

  return (
    <div className="checkout-hosted">
      {askPhone ? (
        <TextField
          label="Mobile number"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          placeholder="98765 43210"
          value={phone}
          onChange={(e) => setPhone(e.target.value)}
          hint="An Indian mobile number: Cashfree needs it for the payment"
        />
      ) : null}
      <Button block variant={primary ? "primary" : "secondary"} onClick={pay} loading={busy}>
        <span>{label}</span>
      </Button>
      {note ? (
        <p className="checkout-note" data-price-note="">
          {note}
        </p>
      ) : null}
      {status ? (
        <p className="checkout-note" role="status">
          {status}
        </p>
      ) : null}
      {error ? (
        <p className="form-error" role="alert">
          {error.message}
          {error.reason === "wallet_required" ? (
            <>
              {" "}
              <Link to="/wallet">Link a wallet</Link>
            </>
          ) : null}
          {error.reason === "unpaid_holds_limit" ? (
            <>
              {" "}
              <Link to="/profile#orders">Your orders</Link>
            </>
          ) : null}
          {error.reason === "open_order" && error.orderId ? (
            <>
              {" "}
              <Link to={`/confirmation/${nftId}/${error.orderId}`}>See your open order</Link>
            </>
          ) : null}
        </p>
      ) : null}
      {error?.retry ? (
        <Button variant="secondary" size="sm" onClick={pay} loading={busy}>
          {tryAgainLabel}
        </Button>
      ) : null}
    </div>
  );
}

/**
 * Resolves once the signed-in fan has a wallet: when they have none and the server offers passkey wallets,
 * it makes one (the browser asks for the fingerprint, face or screen lock) and links it.
 */
function useEnsurePasskeyWallet() {
  const queryClient = useQueryClient();
  const chain = useChainInfo().data;
  const { user } = useCurrentUser();
  return async (status: (s: string) => void) => {
    const wallets = await queryClient.fetchQuery({ queryKey: walletsQueryKey, queryFn: fetchLinkedWallets });
    if (wallets.items.length > 0 || !chain?.accountFactory) return;
    if (!passkeysSupported()) {
      throw new Error("This browser cannot make a passkey: link a wallet app on the Wallet page instead");
    }
    status("Creating your wallet: confirm with your fingerprint, face or screen lock…");
    await createPasskeyWallet(user?.email ?? "fan");
    await queryClient.invalidateQueries({ queryKey: walletsQueryKey });
  };
}

/**
 * Whether the card is this fan's way to pay: their purchases go to their passkey wallet (which pays no
 * crypto), or they have no linked wallet and no wallet app in this browser.
 */
export function useCardFirst(): boolean {
  const { user } = useCurrentUser();
  const linked = useLinkedWallets(!!user).data?.items;
  if (!linked) return false;
  const receiving = linked.find((w) => w.receivesPurchases) ?? linked[0];
  if (receiving) return receiving.kind === "passkey";
  return !(typeof window !== "undefined" && "ethereum" in window && !!window.ethereum);
}

/** What a fan without a wallet will get, said before they pay. */
function PasskeyWalletNote() {
  const chain = useChainInfo().data;
  const { user } = useCurrentUser();
  const wallets = useLinkedWallets(!!user);
  if (!user || !chain?.accountFactory || !wallets.data || wallets.data.items.length > 0) return null;
  return (
    <p className="checkout-note">
      No wallet yet? Paying makes you one with a passkey on this device (fingerprint, face or screen lock):
      the NFT is yours, with no app and no seed phrase.
    </p>
  );
}

/** 'Buy crypto': the configured on-ramp widget, with the receiving wallet and the price in USD. */
function BuyCrypto({ template, usdCents }: { template: string; usdCents: number }) {
  const wallets = useLinkedWallets(true);
  const address = wallets.data?.items.find((w) => w.receivesPurchases)?.address;
  if (!address) {
    return (
      <p className="checkout-note">
        No crypto yet? <Link to="/wallet">Link a wallet</Link> to buy some with a card.
      </p>
    );
  }
  const href = template
    .replaceAll("{address}", encodeURIComponent(address))
    .replaceAll("{amount}", encodeURIComponent((usdCents / 100).toFixed(2)));
  return (
    <p className="checkout-note">
      No crypto yet?{" "}
      <a href={href} target="_blank" rel="noopener noreferrer">
        Buy crypto
      </a>{" "}
      with a card, sent straight to your wallet.
    </p>
  );
}
