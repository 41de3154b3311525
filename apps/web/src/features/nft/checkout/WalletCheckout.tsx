import type { NftDetail } from "@diginoor/api/catalogue";
import type { Order } from "@diginoor/api/orders";
import type { QuoteResponse } from "@diginoor/api/wallets";
import { useEffect, useState } from "react";
import { Link, useNavigate } from "react-router";
import { useConnectors } from "wagmi";
import { ApiError } from "../../../lib/api.ts";
import { useCountdown } from "../../../lib/hooks.ts";
import { WithWallet } from "../../../lib/wallet/WithWallet.tsx";
import { type ReadyChain, useLinkedWallets } from "../../../lib/wallet/chain.ts";
import { walletErrorMessage } from "../../../lib/wallet/errors.ts";
import { useMarketActions } from "../../../lib/wallet/market.ts";
import { Price } from "../../../ui/Price.tsx";
import { Button } from "../../../ui/Button.tsx";
import { Spinner } from "../../../ui/Spinner.tsx";
import { checkoutApi } from "./api.ts";
import { HostedCheckout, useCardFirst } from "./HostedCheckout.tsx";
import { WalletProgress } from "../../../lib/wallet/WalletProgress.tsx";

/**
 * The checkout of a fixed-price NFT (shown in the purchase dialog): paid from the buyer's wallet, or on
 * a payment provider's hosted page (card, rupees) or after buying crypto (decisions 141, 142).
 */
export default function WalletCheckout({ nft }: { nft: NftDetail }) {
  // A fan without a wallet app (or whose purchases go to their passkey wallet) sees card and rupees
  // first; the crypto path follows, for fans with wallets (issue 35).
  const cardFirst = useCardFirst();
  const crypto = (
    <WithWallet
      key="crypto"
      loading={<Spinner label="Loading the wallet" />}
      unavailable={
        <p className="nft-panel-closed">Crypto payments are unavailable on this server right now.</p>
      }
    >
      {(chain) => <Checkout nft={nft} chain={chain} below={cardFirst} />}
    </WithWallet>
  );
  const hosted = <HostedCheckout key="hosted" nft={nft} first={cardFirst} />;
  return <>{cardFirst ? [hosted, crypto] : [crypto, hosted]}</>;
}

function Checkout({ nft, chain, below }: { nft: NftDetail; chain: ReadyChain; below: boolean }) {
  const navigate = useNavigate();
  const actions = useMarketActions(chain);
  const [quote, setQuote] = useState<QuoteResponse | null>(null);
  const [order, setOrder] = useState<Order | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [openOrder, setOpenOrder] = useState<string | null>(null);
  const [step, setStep] = useState<string | null>(null);
  const left = useCountdown(quote?.expiresAt ?? null);
  const expired = !!left?.ended;
  const cryptoHint = useCryptoHint();

  async function newQuote() {
    setError(null);
    setOrder(null);
    try {
      setQuote(await checkoutApi.quote(nft.id));
    } catch (err) {
      setError(err instanceof ApiError ? err.message : "We couldn't get a price; try again");
    }
  }
  // biome-ignore lint/correctness/useExhaustiveDependencies: one quote when the checkout opens
  useEffect(() => {
    void newQuote();
  }, [nft.id]);

  async function pay() {
    if (!quote) return;
    setError(null);
    try {
      // The wallet first: a buyer without a linked wallet goes to /wallet before any edition is held.
      await actions.ensureWallet("pay", true);
      setStep("Reserving your edition..");
      const o = order ?? (await checkoutApi.createWalletOrder(nft.id, quote.quoteId));
      setOrder(o);
      if (!o.payment) throw new Error("This order is no longer waiting for payment");
      await actions.purchase(o.payment, setStep, async (hash) => {
        await checkoutApi.reportTransaction(o.orderId, hash).catch(() => {});
        navigate(`/confirmation/${nft.id}/${o.orderId}`);
      });
    } catch (err) {
      const details = err instanceof ApiError ? (err.details as { orderId?: string } | undefined) : undefined;
      setOpenOrder(err instanceof ApiError && err.status === 409 ? (details?.orderId ?? null) : null);
      setError(walletErrorMessage(err, quote.symbol));
    } finally {
      setStep(null);
    }
  }

  if (!quote) {
    return error ? (
      <div className="checkout">
        <p className="form-error" role="alert">
          {error}
        </p>
        <Button variant="secondary" onClick={newQuote}>
          Try again
        </Button>
      </div>
    ) : (
      <Spinner label="Getting today's price" />
    );
  }
  return (
    <div className={below ? "checkout checkout-card" : "checkout"}>
      {below ? <p className="checkout-or">or pay with crypto from your wallet</p> : null}
      <dl className="checkout-lines">
        <div>
          <dt>{nft.title}</dt>
          <dd>
            <Price usdCents={quote.usdCents} paise={quote.inrPaise} />
          </dd>
        </div>
        <div className="checkout-total">
          <dt>You pay in {quote.symbol}</dt>
          <dd data-testid="checkout-price">
            <Price
              usdCents={quote.usdCents}
              paise={quote.inrPaise}
              wei={quote.priceWei}
              symbol={quote.symbol}
              stacked
            />
          </dd>
        </div>
      </dl>
      <p className="checkout-note" aria-live="polite">
        {expired
          ? "This price has expired."
          : left
            ? `Price held for ${left.minutes}:${String(left.seconds).padStart(2, "0")}. The NFT is sent to the wallet that receives your purchases.`
            : null}
      </p>
      {cryptoHint ? (
        <p className="checkout-note" data-testid="crypto-hint">
          {cryptoHint}
        </p>
      ) : null}
      {expired ? (
        <Button block onClick={newQuote}>
          Get a new price
        </Button>
      ) : (
        <Button block variant={cryptoHint ? "secondary" : "primary"} onClick={pay} loading={!!step}>
          Pay with wallet
        </Button>
      )}
      <WalletProgress text={step} />
      {error ? (
        <p className="form-error" role="alert">
          {error}
          {openOrder ? (
            <>
              {" "}
              <Link to={`/confirmation/${nft.id}/${openOrder}`}>See your open order</Link>
            </>
          ) : null}
        </p>
      ) : null}
    </div>
  );
}

/**
 * Why paying in crypto is not this fan's way, when it is not: purchases go to their passkey wallet (which
 * pays no coin), or they have neither a wallet app in this browser nor a linked one. The card below is then
 * the way (decision 160); the crypto button stays, quieter.
 */
function useCryptoHint(): string | null {
  const connectors = useConnectors();
  const linked = useLinkedWallets(true).data?.items;
  if (!linked) return null;
  const receiving = linked.find((w) => w.receivesPurchases) ?? linked[0];
  if (receiving?.kind === "passkey") {
    return "Your purchases go to your passkey wallet: pay with one of the choices above. Paying in crypto needs a wallet app that receives your purchases (Wallet page).";
  }
  const walletApp =
    connectors.some((c) => c.type === "injected" && c.id !== "injected") ||
    (typeof window !== "undefined" && "ethereum" in window && !!window.ethereum);
  if (walletApp || linked.length > 0) return null;
  return "Paying in crypto needs a wallet app. No wallet app? Pay with one of the choices above.";
}
