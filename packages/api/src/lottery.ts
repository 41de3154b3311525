// Lotteries (issue 24, decision 161): a commit-reveal draw anyone can recompute from this API alone.
import { z } from "zod";
import { endpoint } from "./endpoint.ts";
import { imageUrlSchema as imageUrl, isoDateTime, lineText, paragraphText, requiredLine } from "./text.ts";

const tags = ["lottery"] as const;
/** 0x-prefixed 32 bytes, lower-case hex. */
const hex32 = z.string().regex(/^0x[0-9a-f]{64}$/);

/**
 * scheduled (not open yet) → open → closed (tickets listed, waiting for its block) → drawn; or
 * not_activated (fewer tickets than its minimum, or the seed was not revealed in time: every ticket
 * is refunded).
 */
export const lotteryStateSchema = z.enum(["scheduled", "open", "closed", "drawn", "not_activated"]);
export type LotteryState = z.infer<typeof lotteryStateSchema>;

export const lotteryPrizeSchema = z.discriminatedUnion("kind", [
  /** One edition of a catalogue NFT, minted to the winner's linked wallet. */
  z
    .object({ kind: z.literal("nft"), nftId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "must be an NFT id") })
    .strict(),
  /** An amount owed to the winner, paid by an audited console action. */
  z
    .object({
      kind: z.literal("pool"),
      amountCents: z.number().int("must be a whole number of cents").min(1).max(100_000_000_00),
    })
    .strict(),
]);
export type LotteryPrize = z.infer<typeof lotteryPrizeSchema>;

/** The draw's public inputs and result (null until drawn). */
export const lotteryDrawSchema = z.object({
  /** The secret seed, revealed at the draw; sha256(seed) is `seedHash`. */
  seed: hex32,
  /** The first block numbered at least closeBlock + drawBlocks. */
  blockNumber: z.number().int(),
  blockHash: hex32,
  /** sha256 of the exact bytes of tickets.csv. */
  ticketListHash: hex32,
  /** 1 + (uint256(sha256(seed ‖ blockHash ‖ ticketListHash)) mod ticketsSold). */
  winningTicket: z.number().int(),
});
export type LotteryDraw = z.infer<typeof lotteryDrawSchema>;

export const lotterySchema = z.object({
  id: z.string(),
  name: z.string(),
  imageUrl: z.string().nullable(),
  state: lotteryStateSchema,
  ticketPriceCents: z.number().int(),
  minTickets: z.number().int(),
  maxTicketsPerUser: z.number().int().nullable(),
  ticketsSold: z.number().int(),
  players: z.number().int(),
  /** Tickets sold × ticket price, in USD cents. */
  salesCents: z.number().int(),
  prize: lotteryPrizeSchema,
  /** The prize NFT's title and image when the prize is an NFT. */
  prizeNft: z.object({ title: z.string(), imageUrl: z.string() }).nullable(),
  rules: z.string(),
  opensAt: z.string(),
  closesAt: z.string(),
  /** sha256 of the secret seed, published when the lottery is created (before any ticket is sold). */
  seedHash: hex32,
  /** Blocks after the closing block whose hash enters the draw. */
  drawBlocks: z.number().int(),
  /** Set at closing: the chain's latest block number then, and the ticket list's hash. */
  closeBlock: z.number().int().nullable(),
  ticketListHash: hex32.nullable(),
  draw: lotteryDrawSchema.nullable(),
  /** Why a lottery was not activated (fewer tickets than the minimum, or the seed not revealed). */
  outcome: z.string().nullable(),
  /** Once drawn, where the prize is (null before). */
  prizeDelivery: z
    .object({
      /**
       * An NFT: awaiting_wallet (the winner has no wallet linked yet: it is minted when they link one),
       * minting, minted. A pool: owed, then paid (an administrator recorded the payment).
       */
      state: z.enum(["awaiting_wallet", "minting", "minted", "owed", "paid"]),
      /** The NFT's mint transaction, once sent. */
      txHash: z.string().nullable(),
      /** The minted token's id (an NFT prize). */
      tokenId: z.string().nullable(),
      /** When the pool's payment was recorded. */
      paidAt: z.string().nullable(),
    })
    .nullable(),
});
export type Lottery = z.infer<typeof lotterySchema>;
export type PrizeDelivery = NonNullable<Lottery["prizeDelivery"]>;

/** POST /api/v1/admin/lotteries/{id}/prize-payment: how the prize pool was paid to the winner. */
export const prizePaymentSchema = z
  .object({
    /** The bank transfer's or payout's reference, kept in the audit log. */
    reference: requiredLine(200),
  })
  .strict();
export type PrizePayment = z.infer<typeof prizePaymentSchema>;

/** Where lotteries are allowed (LOTTERY_REGIONS): ISO 3166 country or subdivision codes, or all. */
export const lotteryRegionsSchema = z.object({
  all: z.boolean(),
  allowed: z.array(z.string()),
  /** Shown on the pages when every region is allowed (development only). */
  notice: z.string().nullable(),
});
export type LotteryRegions = z.infer<typeof lotteryRegionsSchema>;

export const lotteryListSchema = z.object({
  items: z.array(lotterySchema),
  regions: lotteryRegionsSchema,
});
export type LotteryList = z.infer<typeof lotteryListSchema>;

/** A past draw for the winner history: real draws only. */
export const lotteryWinnerSchema = z.object({
  lotteryId: z.string(),
  name: z.string(),
  drawnAt: z.string(),
  winningTicket: z.number().int(),
  /** The winner's public display name. */
  winner: z.string(),
  prize: lotteryPrizeSchema,
});
export const lotteryWinnersSchema = z.object({ items: z.array(lotteryWinnerSchema) });

const isoTime = isoDateTime();

export const lotteryInputSchema = z
  .object({
    name: requiredLine(120),
    image: imageUrl.optional(),
    ticketPriceCents: z
      .number()
      .int("must be a whole number of cents")
      .min(1, "must be at least 1 cent")
      .max(1_000_000, "at most $10,000"),
    minTickets: z.number().int("must be a whole number").min(1).max(10_000_000).default(100),
    opensAt: isoTime,
    closesAt: isoTime,
    maxTicketsPerUser: z.number().int("must be a whole number").min(1).max(1_000_000).optional(),
    prize: lotteryPrizeSchema,
    rules: paragraphText(20_000).optional(),
  })
  .strict();
export type LotteryInput = z.infer<typeof lotteryInputSchema>;
export const lotteryPatchSchema = z
  .object({
    name: lotteryInputSchema.shape.name.optional(),
    image: imageUrl.nullable().optional(),
    ticketPriceCents: lotteryInputSchema.shape.ticketPriceCents.optional(),
    minTickets: z.number().int("must be a whole number").min(1).max(10_000_000).optional(),
    opensAt: isoTime.optional(),
    closesAt: isoTime.optional(),
    maxTicketsPerUser: z.number().int().min(1).max(1_000_000).nullable().optional(),
    prize: lotteryPrizeSchema.optional(),
    rules: paragraphText(20_000).optional(),
  })
  .strict();
export type LotteryPatch = z.infer<typeof lotteryPatchSchema>;

export const lotteryParamsSchema = z.object({ id: z.uuid("must be a lottery id") }).strict();

/** A buyer's region: an ISO 3166-1 country (IN) or ISO 3166-2 subdivision (IN-MH) code. */
export const regionCodeSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}(-[A-Z0-9]{1,3})?$/, "must be an ISO 3166 country or subdivision code (e.g. IN-MH)");

/** Body of POST /api/v1/lotteries/{id}/orders: the price is the server's, never the client's. */
export const ticketOrderRequestSchema = z
  .object({
    count: z
      .number({ message: "must be a number" })
      .int("must be a whole number of tickets")
      .min(1, "at least 1 ticket")
      .max(100_000, "at most 100,000 tickets in one order"),
    provider: z.enum(["sandbox", "stripe", "cashfree"]),
    region: regionCodeSchema,
    /** Must be true: the buyer accepts the lottery's rules before any ticket. */
    acceptRules: z
      .boolean({ message: "must be true (the lottery's rules must be accepted)" })
      .refine((v) => v, "the lottery's rules must be accepted"),
    /** Cashfree: the payer's Indian mobile number, when the account has none. */
    phone: lineText(20).min(10, "at least 10 characters").optional(),
  })
  .strict();
export type TicketOrderRequest = z.infer<typeof ticketOrderRequestSchema>;

export const ticketOrderSchema = z.object({
  orderId: z.string(),
  state: z.string(),
  checkoutUrl: z.string().nullable(),
});

/** A signed-in user's tickets in one lottery. */
export const myTicketsSchema = z.object({
  items: z.array(
    z.object({
      lottery: lotterySchema,
      ranges: z.array(z.object({ orderId: z.string(), first: z.number().int(), last: z.number().int() })),
      tickets: z.number().int(),
      won: z.boolean(),
    }),
  ),
});
export type MyTickets = z.infer<typeof myTicketsSchema>;

/** What a lottery's live stream sends whenever its counts or its state change. */
export const lotteryLiveEventSchema = z.object({
  type: z.literal("lottery.updated"),
  lotteryId: z.string(),
  ticketsSold: z.number().int(),
  players: z.number().int(),
  state: lotteryStateSchema,
});
export type LotteryLiveEvent = z.infer<typeof lotteryLiveEventSchema>;

export const lotteryMessages = {
  notFound: "Lottery not found",
  notOpen: "This lottery is not open for tickets",
  notYetOpen: "This lottery is not open yet",
  closed: "This lottery is closed",
  regionNotAllowed:
    "Lotteries are not available in your region: paid prize draws are regulated, and Diginoor runs them only where they are allowed",
  overCap: (cap: number, held: number) =>
    `At most ${cap} tickets per player in this lottery (you hold or are buying ${held})`,
  priceFromClient: "The ticket price is set by the server; do not send one",
  startedEditing: "A lottery can be edited only until it opens",
  closesBeforeOpens: "must be after the opening time",
  prizeNftUnknown: "No such NFT in the catalogue",
  prizeNftSoldOut: "The prize NFT has no edition left to give",
  prizeNotOwed: "Only a drawn lottery's prize pool that is not paid yet can be marked paid",
} as const;

export const lotteryEndpoints = {
  list: endpoint({
    operationId: "listLotteries",
    method: "GET",
    path: "/api/v1/lotteries",
    summary:
      "Lotteries that are scheduled, open or recently over, newest closing first; where they are allowed",
    tags,
    success: { status: 200, schema: lotteryListSchema },
  }),
  winners: endpoint({
    operationId: "listLotteryWinners",
    method: "GET",
    path: "/api/v1/lotteries/winners",
    summary: "The winner history: the latest real draws",
    tags,
    success: { status: 200, schema: lotteryWinnersSchema },
  }),
  get: endpoint({
    operationId: "getLottery",
    method: "GET",
    path: "/api/v1/lotteries/{id}",
    summary: "One lottery: counts, the seed's hash, and once drawn every input of the draw and its result",
    tags,
    params: lotteryParamsSchema,
    success: { status: 200, schema: lotterySchema },
    errors: ["not_found"],
  }),
  ticketsCsv: endpoint({
    operationId: "getLotteryTickets",
    method: "GET",
    path: "/api/v1/lotteries/{id}/tickets.csv",
    summary:
      "After closing: one line per paid order in ticket order, `first,last,holder` (holder = hex sha256 of the order id); its sha256 is the draw's ticketListHash",
    tags,
    params: lotteryParamsSchema,
    success: { status: 200, schema: z.string(), contentType: "text/csv" },
    errors: ["not_found", "conflict"],
  }),
  events: endpoint({
    operationId: "streamLotteryEvents",
    method: "GET",
    path: "/api/v1/lotteries/{id}/events",
    summary:
      "Live counts of one lottery for everyone watching its page (Server-Sent Events: `event: lottery.updated`, heartbeat comments)",
    tags,
    params: lotteryParamsSchema,
    success: {
      status: 200,
      schema: z
        .string()
        .describe(
          "An endless text/event-stream. One client address may hold a few anonymous streams at once (SSE_MAX_STREAMS_PER_ADDRESS, 20 by default): beyond it 429 `too_many_streams`",
        ),
      contentType: "text/event-stream",
    },
    errors: ["not_found", "too_many_streams"],
  }),
  createTicketOrder: endpoint({
    operationId: "createTicketOrder",
    method: "POST",
    path: "/api/v1/lotteries/{id}/orders",
    summary:
      "Buy tickets: the server prices them (count × ticket price), checks the count, the cap, the lottery's state and the buyer's region, and returns where to pay. Read back at GET /api/v1/orders/{orderId}",
    tags,
    params: lotteryParamsSchema,
    body: ticketOrderRequestSchema,
    success: { status: 201, schema: ticketOrderSchema },
    errors: [
      "bad_request",
      "forbidden",
      "not_found",
      "conflict",
      "bad_gateway",
      "unavailable",
      "kyc_required",
    ],
  }),
  myTickets: endpoint({
    operationId: "myLotteryTickets",
    method: "GET",
    path: "/api/v1/me/lottery-tickets",
    summary: "The signed-in user's tickets per lottery, their numbers, and each lottery's result",
    tags,
    success: { status: 200, schema: myTicketsSchema },
  }),
  /** The console's lotteries (a collection of the console, like its films and NFTs). */
  admin: {
    list: endpoint({
      operationId: "adminListLotteries",
      method: "GET",
      path: "/api/v1/admin/lotteries",
      summary: "Console: every lottery (a studio account sees its own)",
      tags: ["admin"],
      success: { status: 200, schema: z.object({ items: z.array(lotterySchema) }) },
    }),
    create: endpoint({
      operationId: "adminCreateLottery",
      method: "POST",
      path: "/api/v1/admin/lotteries",
      summary: "Console: create a lottery (its seed is drawn and its hash published now); audited",
      tags: ["admin"],
      body: lotteryInputSchema,
      success: { status: 201, schema: lotterySchema },
      errors: ["bad_request", "not_found", "conflict"],
    }),
    update: endpoint({
      operationId: "adminUpdateLottery",
      method: "PATCH",
      path: "/api/v1/admin/lotteries/{id}",
      summary: "Console: edit a lottery until it opens; audited",
      tags: ["admin"],
      params: lotteryParamsSchema,
      body: lotteryPatchSchema,
      success: { status: 200, schema: lotterySchema },
      errors: ["bad_request", "not_found", "conflict"],
    }),
    payPrize: endpoint({
      operationId: "adminPayLotteryPrize",
      method: "POST",
      path: "/api/v1/admin/lotteries/{id}/prize-payment",
      summary:
        "Console: record that a drawn lottery's prize pool was paid to its winner (once; administrators only; the winner's identity must be verified, else 403 kyc_required); audited",
      tags: ["admin"],
      params: lotteryParamsSchema,
      body: prizePaymentSchema,
      success: { status: 200, schema: lotterySchema },
      errors: ["bad_request", "forbidden", "not_found", "conflict", "kyc_required"],
    }),
  },
};
