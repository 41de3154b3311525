import { z } from "zod";
import { endpoint } from "./endpoint.ts";
import { lineText } from "./text.ts";

/** Integer amounts as decimal strings (wei does not fit in a JSON number). */
const decimalString = z.string().regex(/^\d+$/);
const nftIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "must be an NFT id");

/** How an order is paid. Only the providers the server has configured are accepted. */
export const orderProviderSchema = z.enum(["wallet", "sandbox", "stripe", "cashfree"]);
export type OrderProvider = z.infer<typeof orderProviderSchema>;

/**
 * An order's life: created → awaiting_payment → paid → minting → fulfilled; or failed, expired,
 * cancelled (by its buyer before paying); a paid order may be refunded: refund_pending → refunded, or
 * refund_failed (the console can retry). A wallet order is paid and minted by one transaction, so it goes from awaiting_payment
 * to minting when the buyer's transaction is sent, and to fulfilled once the indexer applied it.
 */
export const orderStateSchema = z.enum([
  "created",
  "awaiting_payment",
  "paid",
  "minting",
  "fulfilled",
  "failed",
  "expired",
  "cancelled",
  "refund_pending",
  "refunded",
  "refund_failed",
]);
export type OrderState = z.infer<typeof orderStateSchema>;

/** A resale listing a card or rupee order buys: the token and the price (wei) the buyer was shown. */
export const resaleListingRequestSchema = z
  .object({
    tokenId: z.string().regex(/^\d{1,78}$/, "must be a token id"),
    priceWei: z.string().regex(/^[1-9]\d{0,77}$/, "must be a positive amount in wei"),
  })
  .strict();

/**
 * Body of POST /api/v1/orders. A wallet order pays at the quoted price, so it names its quote. A card
 * or rupee order with `listing` buys that resale listing of the NFT instead of a new edition.
 */
export const createOrderRequestSchema = z
  .object({
    nftId: nftIdSchema,
    provider: orderProviderSchema,
    quoteId: z.uuid("must be a quote id").optional(),
    listing: resaleListingRequestSchema.optional(),
    /** Cashfree orders: the payer's Indian mobile number, when their account has none. */
    phone: lineText(20).min(10, "at least 10 characters").optional(),
  })
  .strict();
export type CreateOrderRequest = z.infer<typeof createOrderRequestSchema>;

/**
 * What the buyer's wallet sends for a wallet order: `DiginoorMarketplace.purchase(voucher, signature)`
 * with `valueWei` attached. The voucher's integers are decimal strings.
 */
export const walletPaymentSchema = z.object({
  chainId: z.number().int(),
  marketplace: z.string(),
  valueWei: decimalString,
  voucher: z.object({
    catalogueNftId: decimalString,
    edition: z.number().int(),
    priceWei: decimalString,
    buyer: z.string(),
    platformFeeBps: z.number().int(),
    orderId: z.string(),
    expiry: decimalString,
  }),
  signature: z.string(),
});
export type WalletPayment = z.infer<typeof walletPaymentSchema>;

export const orderTransitionSchema = z.object({
  from: orderStateSchema.nullable(),
  to: orderStateSchema,
  cause: z.string(),
  at: z.string(),
});

/** An order as its owner sees it. */
export const orderSchema = z.object({
  orderId: z.string(),
  /** `primary`: a new edition minted (or tickets); `resale`: a fan's listing bought for the buyer (card or rupees). */
  kind: z.enum(["primary", "resale"]),
  /** The NFT bought; null for a lottery ticket order (then `lotteryId` and `ticketCount` are set). */
  nftId: z.string().nullable(),
  /** The NFT's title, or for a ticket order "<count> tickets · <lottery name>". */
  nftTitle: z.string(),
  imageUrl: z.string(),
  /** The edition held or minted; null for a ticket order. */
  edition: z.number().int().nullable(),
  /** Ticket orders (issue 24): the lottery and how many tickets. */
  lotteryId: z.string().nullable(),
  ticketCount: z.number().int().nullable(),
  /** A paid ticket order's numbers: the contiguous range it was given, in payment order. */
  tickets: z.object({ first: z.number().int(), last: z.number().int() }).nullable(),
  provider: orderProviderSchema,
  state: orderStateSchema,
  usdCents: z.number().int(),
  /** Crypto orders: the quoted price in the chain's native token. */
  priceWei: decimalString.nullable(),
  symbol: z.string().nullable(),
  chainId: z.number().int().nullable(),
  /** The token this order mints (its id is fixed when the order is made); owned once fulfilled. */
  tokenId: decimalString,
  /** The buyer's transaction, once known. */
  txHash: z.string().nullable(),
  /** Blocks on top of the transaction's block (itself included), while it confirms. */
  confirmations: z.number().int().nullable(),
  requiredConfirmations: z.number().int().nullable(),
  /** The wallet the token goes to. */
  buyerAddress: z.string().nullable(),
  /** Until then the edition is held for this order. */
  reservedUntil: z.string(),
  /** Where the payer pays (hosted checkout providers); null for wallet orders. */
  checkoutUrl: z.string().nullable(),
  /** Hosted-checkout orders (sandbox, Stripe, Cashfree): what the provider charges, in integer minor units of `payCurrency`. */
  payCurrency: z.enum(["usd", "inr"]).nullable(),
  payAmountMinor: z.number().int().nullable(),
  /** INR orders: the USD→INR rate the price was converted at (micro-rupees per dollar). */
  inrMicrosPerUsd: decimalString.nullable(),
  /** Wallet orders awaiting payment: what the wallet sends. */
  payment: walletPaymentSchema.nullable(),
  transitions: z.array(orderTransitionSchema),
  createdAt: z.string(),
});
export type Order = z.infer<typeof orderSchema>;

export const orderListSchema = z.object({
  items: z.array(orderSchema.omit({ payment: true, transitions: true })),
});
export type OrderList = z.infer<typeof orderListSchema>;

/** An order as the studio console shows it: with its owner and state history (never its voucher). */
export const adminOrderSchema = orderSchema.omit({ payment: true }).extend({ userId: z.string() });
export type AdminOrder = z.infer<typeof adminOrderSchema>;
export type AdminOrderList = { items: AdminOrder[]; nextCursor: string | null };
export const adminOrderListSchema = z.object({
  items: z.array(adminOrderSchema),
  nextCursor: z.string().nullable(),
});
export const adminOrdersQuerySchema = z.object({ state: orderStateSchema.optional() }).strict();

export const orderParamsSchema = z.object({ orderId: z.uuid("must be an order id") }).strict();

/** Body of POST /api/v1/orders/{orderId}/transaction: the hash of the buyer's purchase transaction. */
export const orderTransactionRequestSchema = z
  .object({ txHash: z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be a 32-byte transaction hash") })
  .strict();

export const orderMessages = {
  walletRequired: "Please Connect Wallet to Proceed",
  quoteRequired: "A wallet order needs a price quote (quoteId)",
  quoteOtherNft: "This price quote is for another NFT",
  providerNotConfigured: (p: string) => `Payment by ${p} is not available`,
  soldOut: "This NFT is sold out",
  auctionOnly: "This NFT is sold at auction; place a bid instead",
  noPayout: "This studio cannot take crypto payments yet",
  notFound: "Order not found",
  notAwaitingPayment: "This order is no longer waiting for payment",
  wrongTransaction: "That transaction is not this order's purchase",
  checkoutNotFound: "Checkout session not found",
  phoneRequired:
    "Paying in rupees needs your mobile number (Cashfree sends the payment confirmation to it): please enter an Indian mobile number",
  phoneInvalid: "Please enter a valid Indian mobile number (10 digits, starting with 6, 7, 8 or 9)",
  /** 409 with `details.reason = "open_order"` and `details.orderId`: the fan's unpaid order of this NFT. */
  openOrder: "You already have an unpaid order for this NFT: finish or cancel it before starting another",
  /** 409 with `details.reason = "unpaid_holds_limit"` and `details.limit`. */
  accountHoldsLimit: (limit: number) =>
    `You have ${limit} unpaid orders, the most an account may hold at once: pay for or cancel one of them first`,
  walletHoldsLimit: (limit: number) =>
    `Your receiving wallet has ${limit} unpaid orders, the most a wallet address may hold at once: pay for or cancel one of them first`,
  /** 409 with `details.reason = "quote_used"`. */
  quoteUsed: "This price quote is already used by an order: ask for a new price",
  notCancellable: "This order can no longer be cancelled: it is paid or over",
  notRefundable:
    "This order cannot be refunded from here: only a fulfilled card or rupee order (or one whose refund failed, to try again) can be",
  /** 409 with `details.reason = "listing_gone"`. */
  listingGone: "This listing is no longer for sale",
  /** 409 with `details.reason = "listing_changed"` and `details.priceWei` (the price now). */
  listingChanged: "The seller changed this listing's price: look at the new price before paying",
  ownListing: "This is your own listing",
  /** 409 with `details.reason = "token_hidden"`: the console suspended or voided the token (issue 34 point 7). */
  tokenHidden: "This token is not for sale on Diginoor",
  listingOtherNft: "This token is not an edition of that NFT",
  resaleByWallet:
    "Buy a listing with a wallet directly on the marketplace; card and rupee orders can name a listing",
  walletNotCancellable:
    "A wallet order cannot be cancelled: its signed voucher stays valid until it expires, and nothing is charged unless your wallet sends it",
} as const;

/** A hosted sandbox checkout session (decision 141). */
export const sandboxSessionParamsSchema = z
  .object({ sessionId: z.string().regex(/^cs_sandbox_[0-9a-f]{24}$/, "must be a sandbox session id") })
  .strict();
export const sandboxActionParamsSchema = sandboxSessionParamsSchema
  .extend({ action: z.enum(["pay", "decline", "abandon"]) })
  .strict();

/** What our webhook routes answer a provider (quickly; the work is done in jobs). */
export const webhookReceiptSchema = z.object({
  received: z.literal(true),
  /** The provider sent this event before: nothing was done again. */
  duplicate: z.boolean(),
});

/** Body of GET /api/v1/checkout/options: what the NFT checkout may offer (never a secret). */
export const checkoutOptionsSchema = z.object({
  /** The card provider: Stripe when configured, else the sandbox outside production, else none. */
  card: z.enum(["stripe", "sandbox"]).nullable(),
  /** What the card provider charges in: rupees (the sandbox; Stripe by STRIPE_CURRENCY) or dollars. */
  cardCurrency: z.enum(["inr", "usd"]).nullable(),
  /** Rupees (UPI, cards, net banking): Cashfree when configured. */
  rupees: z.enum(["cashfree"]).nullable(),
  /** Every hosted-checkout provider the server accepts in POST /api/v1/orders. */
  providers: z.array(orderProviderSchema),
  /** 'Buy crypto': the on-ramp widget's URL template ({address}, {amount} in USD), when configured. */
  onrampUrl: z.string().nullable(),
  /** The stored USD→INR rate rupee prices are converted at (micro-rupees per dollar). */
  inrMicrosPerUsd: decimalString,
});
export type CheckoutOptions = z.infer<typeof checkoutOptionsSchema>;

export const cashfreeCheckoutParamsSchema = z.object({ orderId: z.uuid("must be an order id") }).strict();

/** The live primary auction of a catalogue NFT (one edition at a time), from the indexer's tables. */
export const nftAuctionSchema = z.object({
  nftId: z.string(),
  edition: z.number().int(),
  tokenId: decimalString,
  chainId: z.number().int(),
  marketplace: z.string(),
  symbol: z.string(),
  seller: z.string(),
  reserveWei: decimalString,
  highestBidWei: decimalString.nullable(),
  highestBidder: z.string().nullable(),
  /** Smallest bid the contract accepts now: the reserve, or the highest bid plus the minimum increment. */
  minimumBidWei: decimalString,
  /** The clock starts with the first bid; null until then. */
  endsAt: z.string().nullable(),
  durationDays: z.number().int(),
  /** "open" takes bids; "ended" waits for anyone to settle it; "settled" is over. */
  status: z.enum(["opening", "open", "paused", "ended", "settled"]),
});
export type NftAuction = z.infer<typeof nftAuctionSchema>;

export const nftAuctionParamsSchema = z.object({ id: nftIdSchema }).strict();

export const orderEndpoints = {
  createOrder: endpoint({
    operationId: "createOrder",
    method: "POST",
    path: "/api/v1/orders",
    summary:
      "Start a purchase: reserves an edition and returns how to pay (a wallet voucher, or a checkout URL). With `listing` (card and rupee providers), buys that resale listing at its price in the payer's currency at the stored rate: 409 listing_gone or listing_changed (details.priceWei) when it no longer stands as shown; if it changes after payment the order is refunded. 409 with details.reason open_order and details.orderId when the fan already has an unpaid order of this NFT; 409 unpaid_holds_limit (details.limit) beyond the caps on unpaid orders per account and per wallet address",
    tags: ["orders"],
    body: createOrderRequestSchema,
    success: { status: 201, schema: orderSchema },
    errors: ["bad_request", "not_found", "conflict", "gone", "bad_gateway", "unavailable", "kyc_required"],
  }),
  listOrders: endpoint({
    operationId: "listOrders",
    method: "GET",
    path: "/api/v1/orders",
    summary: "The signed-in user's orders, newest first",
    tags: ["orders"],
    success: { status: 200, schema: orderListSchema },
  }),
  cancelOrder: endpoint({
    operationId: "cancelOrder",
    method: "POST",
    path: "/api/v1/orders/{orderId}/cancel",
    summary:
      "The buyer cancels an unpaid card or rupee order: its edition is released at once and nothing is charged (the provider's checkout is closed; a payment that still arrives is refunded automatically). A checkout the provider reports paid is applied instead. Cancelling a cancelled order answers it again",
    tags: ["orders"],
    params: orderParamsSchema,
    success: { status: 200, schema: orderSchema },
    errors: ["not_found", "conflict"],
  }),
  getOrder: endpoint({
    operationId: "getOrder",
    method: "GET",
    path: "/api/v1/orders/{orderId}",
    summary: "One of the signed-in user's orders with its state history (404 for anyone else's)",
    tags: ["orders"],
    params: orderParamsSchema,
    success: { status: 200, schema: orderSchema },
    errors: ["not_found"],
  }),
  reportTransaction: endpoint({
    operationId: "reportOrderTransaction",
    method: "POST",
    path: "/api/v1/orders/{orderId}/transaction",
    summary: "Tell the server the hash of the wallet transaction that pays a wallet order",
    tags: ["orders"],
    params: orderParamsSchema,
    body: orderTransactionRequestSchema,
    success: { status: 200, schema: orderSchema },
    errors: ["not_found", "conflict", "bad_request"],
  }),
  adminListOrders: endpoint({
    operationId: "adminListOrders",
    method: "GET",
    path: "/api/v1/admin/orders",
    summary:
      "Studio console: the newest 100 orders of every user (optionally in one state), with their state history",
    tags: ["admin"],
    query: adminOrdersQuerySchema,
    success: { status: 200, schema: adminOrderListSchema },
  }),
  adminRetryFulfilment: endpoint({
    operationId: "adminRetryFulfilment",
    method: "POST",
    path: "/api/v1/admin/orders/{orderId}/retry",
    summary:
      "Studio console: queue the mint of a paid card order again (after its fulfilment failed); audited",
    tags: ["admin"],
    params: orderParamsSchema,
    success: {
      status: 200,
      schema: z.object({ orderId: z.string(), state: orderStateSchema, queued: z.boolean() }),
    },
    errors: ["not_found", "conflict", "unavailable"],
  }),
  adminRefundOrder: endpoint({
    operationId: "adminRefundOrder",
    method: "POST",
    path: "/api/v1/admin/orders/{orderId}/refund",
    summary:
      "Studio console: refund a fulfilled card or rupee order in full through its provider (the token stays with the buyer), or try a failed refund again; audited. Administrators only",
    tags: ["admin"],
    params: orderParamsSchema,
    success: {
      status: 200,
      schema: z.object({ orderId: z.string(), state: orderStateSchema, queued: z.boolean() }),
    },
    errors: ["not_found", "conflict"],
  }),
  getNftAuction: endpoint({
    operationId: "getNftAuction",
    method: "GET",
    path: "/api/v1/nfts/{id}/auction",
    summary: "The live on-chain auction of an auction NFT: reserve, highest bid, minimum next bid, end",
    tags: ["orders"],
    params: nftAuctionParamsSchema,
    success: { status: 200, schema: nftAuctionSchema },
    errors: ["not_found"],
  }),
  sandboxWebhook: endpoint({
    operationId: "sandboxWebhook",
    method: "POST",
    path: "/api/v1/webhooks/sandbox",
    summary:
      "Payment events of the sandbox provider: raw JSON body signed in x-sandbox-signature (t=…,v1=HMAC-SHA256 of t.body); 400 when the signature or timestamp is wrong",
    tags: ["orders"],
    success: { status: 200, schema: webhookReceiptSchema },
    errors: ["bad_request"],
  }),
  stripeWebhook: endpoint({
    operationId: "stripeWebhook",
    method: "POST",
    path: "/api/v1/webhooks/stripe",
    summary:
      "Stripe's Checkout events (checkout.session.completed, async_payment_succeeded/failed, expired): raw body verified with the stripe-signature header; 400 when the signature or timestamp is wrong",
    tags: ["orders"],
    success: { status: 200, schema: webhookReceiptSchema },
    errors: ["bad_request", "not_found"],
  }),
  cashfreeWebhook: endpoint({
    operationId: "cashfreeWebhook",
    method: "POST",
    path: "/api/v1/webhooks/cashfree",
    summary:
      "Cashfree's payment webhooks (PAYMENT_SUCCESS/FAILED/USER_DROPPED_WEBHOOK): x-webhook-signature = base64 HMAC-SHA256 of x-webhook-timestamp + raw body; 400 when the signature or timestamp is wrong",
    tags: ["orders"],
    success: { status: 200, schema: webhookReceiptSchema },
    errors: ["bad_request", "not_found"],
  }),
  cashfreeCheckoutPage: endpoint({
    operationId: "showCashfreeCheckout",
    method: "GET",
    path: "/checkout/cashfree/{orderId}",
    summary:
      "Opens Cashfree's checkout (cashfree.js) for a rupee order awaiting payment (HTML); redirects to the order's status page once it is no longer open",
    tags: ["orders"],
    params: cashfreeCheckoutParamsSchema,
    success: { status: 200, schema: z.string(), contentType: "text/html" },
    errors: ["not_found"],
  }),
  checkoutOptions: endpoint({
    operationId: "getCheckoutOptions",
    method: "GET",
    path: "/api/v1/checkout/options",
    summary:
      "How an NFT can be paid on this server: the configured card and rupee providers, the 'Buy crypto' on-ramp, the USD→INR rate",
    tags: ["orders"],
    success: { status: 200, schema: checkoutOptionsSchema },
  }),
  sandboxCheckoutPage: endpoint({
    operationId: "showSandboxCheckout",
    method: "GET",
    path: "/sandbox/checkout/{sessionId}",
    summary: "The sandbox provider's hosted checkout page (HTML): amount, Pay, Decline, Abandon",
    tags: ["orders"],
    params: sandboxSessionParamsSchema,
    success: { status: 200, schema: z.string(), contentType: "text/html" },
    errors: ["not_found"],
  }),
  sandboxCheckoutAction: endpoint({
    operationId: "sandboxCheckoutAction",
    method: "POST",
    path: "/sandbox/checkout/{sessionId}/{action}",
    summary:
      "The payer's choice on the sandbox checkout page; pay and decline make the sandbox send signed webhooks; redirects back to Diginoor",
    tags: ["orders"],
    params: sandboxActionParamsSchema,
    success: { status: 302 },
    errors: ["not_found"],
  }),
};
