import type { Order } from "@diginoor/api/orders";
import { orderMessages as m } from "@diginoor/api/orders";
import { getAddress } from "viem";
import type { Database } from "../../db/client.ts";
import { queryOf } from "../../db/query.ts";
import { AppError } from "../../http/errors.ts";
import type { Clock } from "../../platform/clock.ts";
import type { Jobs } from "../../platform/jobs/jobs.ts";
import { type Tx, withTransaction } from "../../platform/tx.ts";
import type { CatalogueService } from "../catalogue/service.ts";
import type { ChainRuntime } from "../chain/service.ts";
import type { QuotesService } from "../quotes/service.ts";
import type { WalletsService } from "../wallets/service.ts";
import type { OrderLifecycle, OrdersLog } from "./lifecycle.ts";
import { indianMobile } from "./providers/cashfree.ts";
import type { PaymentProviders } from "./providers/index.ts";
import type { HostedProviderName } from "./providers/types.ts";
import * as repo from "./repo.ts";
import { newSessionId } from "./sandbox.ts";

/** 503: this server runs without a chain, so nothing can be minted or bought for a payment. */
export const chainUnavailable = () =>
  new AppError(503, "unavailable", "Crypto payments are unavailable: this server runs without a blockchain");

/**
 * How long each provider's checkout stays open, as short as it allows (decision 143): Stripe refuses
 * an `expires_at` less than 30 minutes ahead (one more minute covers the clocks' difference and the
 * request's way); Cashfree's order expiry is set 15 minutes ahead, like the sandbox's page.
 */
export const CHECKOUT_OPEN_MS: Record<HostedProviderName, number> = {
  sandbox: 15 * 60_000,
  stripe: 31 * 60_000,
  cashfree: 15 * 60_000,
};
/** The edition stays held this much longer than the provider's checkout is open: no payment for a released edition. */
export const HOLD_MARGIN_MS = 60_000;

export interface HostedCheckoutDeps {
  database: Database;
  clock: Clock;
  catalogue: Pick<CatalogueService, "purchaseTerms">;
  quotes: Pick<QuotesService, "usdCentsToInr">;
  wallets: Pick<WalletsService, "receivingWallet">;
  /** The buyer's email and phone on file (accounts), told to the provider. */
  contactOf(userId: string): Promise<{ email: string; phone: string | null } | undefined>;
  /** The chain the token is minted on; card checkouts need its minter key. */
  chain?: Pick<ChainRuntime, "chainId" | "minter" | "buyer">;
  lifecycle: Pick<
    OrderLifecycle,
    "reserveEdition" | "openOrderOr" | "move" | "moveIn" | "fullView" | "ownOrder"
  >;
  /** Enqueues the fulfilment in the transaction that marks an order paid. */
  jobs?: Pick<Jobs, "enqueue">;
  /** Absolute links (checkout pages, return pages) start with this. */
  publicUrl?: string;
  /** The sandbox card provider, when offered (never in production): its webhook secret. */
  sandbox?: { secret: string };
  /** cashfree.js's mode on our Cashfree checkout page (CASHFREE_ENV). */
  cashfreeMode?: "sandbox" | "production";
  /** Stripe and Cashfree when configured (decision 142); the sandbox's adapter is made from `sandbox`. */
  providers?: PaymentProviders;
  log?: OrdersLog;
}

/**
 * Opening hosted checkouts (sandbox, Stripe, Cashfree; decisions 141–143): the order is priced by the
 * server, committed, then the provider's checkout is opened for it. Primary orders reserve an edition
 * here; resale orders (resale.ts) share every other step.
 */
export function createCheckoutOpening(
  deps: HostedCheckoutDeps & { providers: PaymentProviders; publicUrl: string; log: OrdersLog },
) {
  const { database, clock, providers, publicUrl, log } = deps;
  const q = queryOf(database);

  /** The provider named by a create request, or 400 when this server does not offer it. */
  function hostedProvider(name: string) {
    const p = providers[name as HostedProviderName];
    if (!p) throw AppError.badRequest(m.providerNotConfigured(name));
    return p;
  }

  /** The buyer's email, and the Indian mobile Cashfree needs: given now, or the account's, never invented. */
  async function customerOf(userId: string, provider: HostedProviderName, phone: string | undefined) {
    const u = await deps.contactOf(userId);
    if (!u) throw AppError.unauthorized();
    if (provider !== "cashfree") return { id: userId, email: u.email };
    if (phone !== undefined) {
      const mobile = indianMobile(phone);
      if (!mobile) throw AppError.badRequest(m.phoneInvalid, { reason: "phone_invalid" });
      return { id: userId, email: u.email, phone: mobile };
    }
    const mobile = u.phone ? indianMobile(u.phone) : undefined;
    if (!mobile) throw AppError.badRequest(m.phoneRequired, { reason: "phone_required" });
    return { id: userId, email: u.email, phone: mobile };
  }

  /**
   * A hosted-checkout order (sandbox, Stripe, Cashfree): the price is the catalogue's USD price (never
   * the client's), converted to paise at the stored USD→INR rate for Cashfree (the rate is recorded on
   * the order); the token goes to the user's linked receiving wallet; the edition is held while the
   * payer is at the provider. The order is committed (state `created`) before the provider is asked,
   * so its id is the provider's reference and idempotency key; a provider that fails or times out
   * leaves it `failed` with its edition returned, and the caller gets a 502/503.
   */
  async function createOrder(
    userId: string,
    body: { nftId: string; provider: string; phone?: string },
  ): Promise<Order> {
    const { provider, chain, buyerAddress, customer } = await checkoutFor(userId, body, "minter");
    const row = await deps.lifecycle.openOrderOr(userId, body.nftId, () =>
      withTransaction(database, async (tx) => {
        const { nft, edition } = await deps.lifecycle.reserveEdition(tx, body.nftId, {
          userId,
          address: buyerAddress,
        });
        const usdCents = BigInt(nft.priceUsdCents);
        const o = await insertHostedOrder(tx, provider.name, {
          userId,
          nftId: nft.id,
          edition,
          usdCents,
          chainId: chain.chainId,
          priceWei: null,
          payoutAddress: nft.payoutAddress,
          buyerAddress,
        });
        const inr =
          o.pay_currency === "inr"
            ? `: ${o.pay_amount_minor} paise at ${o.inr_micros_per_usd} micro-rupees per dollar`
            : "";
        await repo.recordCreation(
          queryOf(tx),
          o.id,
          o.state,
          inr === ""
            ? `edition ${edition} reserved for card checkout`
            : `edition ${edition} reserved for ${provider.name} checkout${inr}`,
          o.created_at,
        );
        return o;
      }),
    );
    return openCheckout(row, customer);
  }

  /**
   * What every hosted-checkout order needs before it is made: the provider (400 unless offered), the
   * chain and its key (`minter` mints, `buyer` buys resale listings; 503 without), the fan's receiving
   * wallet (409 without) and what the provider is told about the payer.
   */
  async function checkoutFor(
    userId: string,
    body: { provider: string; phone?: string },
    key: "minter" | "buyer",
  ) {
    const provider = hostedProvider(body.provider);
    const chain = deps.chain;
    if (!chain) throw chainUnavailable();
    if (!chain[key]) throw new AppError(503, "unavailable", m.providerNotConfigured("card"));
    const wallet = await deps.wallets.receivingWallet(userId);
    if (!wallet) throw AppError.conflict(m.walletRequired, { reason: "wallet_required" });
    const customer = await customerOf(userId, provider.name, body.phone);
    return { provider, chain, buyerAddress: getAddress(wallet.address), customer };
  }

  /** Inserts a hosted-checkout order in `tx`: priced in the provider's currency (rupees at the stored rate), held while its checkout is open. */
  async function insertHostedOrder(
    tx: Tx,
    name: HostedProviderName,
    o: Pick<
      repo.NewOrder,
      "userId" | "nftId" | "edition" | "chainId" | "priceWei" | "payoutAddress" | "buyerAddress" | "resale"
    > & { usdCents: bigint },
  ) {
    const provider = hostedProvider(name);
    const now = clock.date();
    const inr = provider.currency === "inr" ? await deps.quotes.usdCentsToInr(o.usdCents) : null;
    return repo.insertOrder(queryOf(tx), {
      ...o,
      provider: name,
      state: name === "sandbox" ? "awaiting_payment" : "created",
      usdCents: Number(o.usdCents),
      quoteId: null,
      platformFeeBps: null,
      voucherExpiry: null,
      reservedUntil: new Date(
        now.getTime() + CHECKOUT_OPEN_MS[name] + (name === "sandbox" ? 0 : HOLD_MARGIN_MS),
      ),
      now,
      providerSession: name === "sandbox" ? newSessionId() : null,
      payCurrency: provider.currency,
      payAmountMinor: inr?.paise ?? o.usdCents,
      inrMicrosPerUsd: inr?.inrMicrosPerUsd ?? null,
    });
  }

  /**
   * Opens the provider's checkout of a committed order (the sandbox's is ours, open already): a provider
   * that fails or times out leaves the order `failed` (its edition returned) and the caller gets a 502/503.
   */
  async function openCheckout(
    row: repo.OrderRow,
    customer: Awaited<ReturnType<typeof customerOf>>,
  ): Promise<Order> {
    const provider = hostedProvider(row.provider);
    if (provider.name === "sandbox") return deps.lifecycle.fullView(row);
    const nft = await deps.catalogue.purchaseTerms(row.nft_id);
    const back = `${publicUrl}/paymentstatus/${row.nft_id}/${row.id}`;
    try {
      const checkout = await provider.createCheckout({
        orderId: row.id,
        nftId: row.nft_id,
        title: nft.title,
        edition: row.edition,
        amountMinor: BigInt(row.pay_amount_minor ?? row.usd_cents),
        currency: provider.currency,
        customer,
        // Cashfree comes back to one URL whatever happened: `/returned` asks (decision 143).
        returnUrl: provider.name === "stripe" ? `${back}/return` : `${back}/returned`,
        cancelUrl: `${back}/cancelled`,
        // Providers' sessions end a little before the reservation does: no payment for a released edition.
        expiresAt: new Date(row.reserved_until.getTime() - HOLD_MARGIN_MS),
      });
      await withTransaction(database, async (tx) => {
        await repo.setCheckout(queryOf(tx), row.id, checkout, clock.date());
        await deps.lifecycle.moveIn(
          tx,
          row,
          ["created"],
          "awaiting_payment",
          `${provider.name} checkout ${checkout.session} opened`,
        );
      });
    } catch (err) {
      log("warn", "a payment provider could not open a checkout", {
        provider: provider.name,
        orderId: row.id,
        err: String((err as { cause?: unknown }).cause ?? err),
      });
      await deps.lifecycle.move(
        row,
        ["created"],
        "failed",
        `${provider.name} could not open a checkout; edition released`,
      );
      throw err;
    }
    const fresh = await repo.findOrder(q, row.id);
    return deps.lifecycle.fullView(fresh ?? row);
  }

  return { createOrder, checkoutFor, insertHostedOrder, openCheckout };
}
