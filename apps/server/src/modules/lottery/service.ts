// Lotteries (issue 24, decision 161). A lottery commits to a secret seed when it is created (its
// sha256 is public before any ticket is sold); paid ticket orders get the next contiguous range of
// ticket numbers in the transaction that pays them, which also keeps tickets sold and players; at the
// closing time a job publishes tickets.csv and its hash and notes the chain's latest block c; the
// draw then uses block c + N, reveals the seed and computes the winning ticket. Every move is a
// guarded UPDATE, so a crash or a second worker can neither skip nor repeat one.
import { randomBytes } from "node:crypto";
import type {
  Lottery,
  LotteryInput,
  LotteryList,
  LotteryPatch,
  LotteryRegions,
  LotteryState,
  MyTickets,
  PrizeDelivery,
} from "@diginoor/api/lottery";
import { kycMessages } from "@diginoor/api/kyc";
import { lotteryMessages as m } from "@diginoor/api/lottery";
import type { Hash } from "viem";
import { z } from "zod";
import type { Database } from "../../db/client.ts";
import { AppError } from "../../http/errors.ts";
import type { Clock } from "../../platform/clock.ts";
import type { JobRef, Jobs } from "../../platform/jobs/jobs.ts";
import type { PubSub } from "../../platform/pubsub/pubsub.ts";
import { type Tx, withTransaction } from "../../platform/tx.ts";
import type { CatalogueService } from "../catalogue/service.ts";
import type { ChainRuntime } from "../chain/service.ts";
import type { KycService } from "../kyc/service.ts";
import { sha256, toHex, winningTicket } from "./draw.ts";
import * as repo from "./repo.ts";

/** The pub/sub channel of one lottery's live counts (its page's progress bar). */
export const lotteryChannel = (id: string) => `lottery.${id}`;

/** Where lotteries are allowed: every region (development only), or these ISO 3166 codes. */
export type RegionPolicy = { all: true } | { all: false; allowed: string[] };

export const DEV_REGIONS_NOTICE =
  "Development server: lotteries are open to every region here. A deployment allows only the regions named in LOTTERY_REGIONS.";

export function regionAllowed(policy: RegionPolicy, region: string): boolean {
  if (policy.all) return true;
  const code = region.toUpperCase();
  const country = code.split("-")[0] as string;
  return policy.allowed.some((a) => a === code || a === country);
}

/** Tells every player the result (the winner: a notification and a mail); enqueued in the draw's transaction. */
export const lotteryResults: JobRef<{ lotteryId: string }> = {
  name: "lottery.results",
  payload: z.object({ lotteryId: z.uuid() }),
};

/** The name of a lottery's NFT prize at the orders module, which mints it (once per source). */
export const prizeSource = (lotteryId: string) => `lottery:${lotteryId}`;

/** The orders module's prize mints, as the lottery uses them (bootstrap wires them in). */
export interface PrizeMints {
  /** Records the prize's edition and enqueues its mint, in the draw's transaction; once per source. */
  grant(tx: Tx, p: { source: string; userId: string; nftId: string }): Promise<unknown>;
  statusOf(source: string): Promise<
    | {
        state: "awaiting_wallet" | "minting" | "minted";
        tx_hash: string | null;
        token_number: string;
      }
    | undefined
  >;
}

/** Why a closed or not-activated lottery's paid ticket orders are refunded (the refund's reason). */
export type RefundCause = "lottery_not_activated" | "lottery_seed_not_revealed";

export interface LotteryServiceDeps {
  database: Database;
  clock: Clock;
  pubsub?: PubSub;
  chain?: Pick<ChainRuntime, "publicClient">;
  /** An NFT prize's edition is taken from the NFT's available editions when the lottery is created. */
  catalogue: Pick<CatalogueService, "purchaseTerms" | "takeEdition" | "returnEdition">;
  /** Mints NFT prizes (the orders module); without it an NFT prize is not delivered. */
  prizes?: PrizeMints;
  /** Enqueues the players' results at the draw. */
  jobs?: Pick<Jobs, "enqueue">;
  regions: RegionPolicy;
  /** N: the draw uses the first block numbered at least (closing block + N). */
  drawBlocks: number;
  /** A closed lottery whose seed is not revealed this long after closing is refunded. */
  revealTimeoutMs: number;
  /** A cash prize is paid only to a winner whose identity is verified (decision 175). */
  kyc: Pick<KycService, "stateOf">;
  /**
   * Called in the transaction that ends a lottery without a draw, with every paid ticket order: the
   * orders module enqueues their refunds there (exactly once per order and cause).
   */
  onRefundAll?: (tx: Tx, lotteryId: string, orderIds: string[], cause: RefundCause) => Promise<void>;
  /** Called in the transaction that records the draw (prize delivery, players' results). */
  onDrawn?: (tx: Tx, lottery: repo.LotteryRow) => Promise<void>;
  log?: (level: "info" | "warn" | "error", msg: string, extra?: object) => void;
}

/** The console's view of who is acting: an administrator, or a studio account of one production house. */
export interface LotteryActor {
  id: string;
  /** Undefined for administrators. */
  houseId?: number;
}

export function createLotteryService(deps: LotteryServiceDeps) {
  const { database, clock } = deps;
  const q: repo.Query = (t, p) => database.query(t, p);
  const txq =
    (tx: Tx): repo.Query =>
    (t, p) =>
      tx.query(t, p);
  const log = deps.log ?? (() => {});

  function stateOf(r: repo.LotteryRow, now = clock.now()): LotteryState {
    if (r.state !== "open") return r.state;
    if (now < r.opens_at.getTime()) return "scheduled";
    if (now >= r.closes_at.getTime()) return "closed";
    return "open";
  }

  const prizeNfts = new Map<string, { title: string; imageUrl: string }>();
  const ticketLists = new Map<string, Buffer>();
  /** Inside a transaction, reads go through it (on PGlite a read outside would wait for it forever). */
  async function prizeNftOf(nftId: string | null, tx?: Tx) {
    if (nftId === null) return null;
    const known = prizeNfts.get(nftId);
    if (known) return known;
    const nft = await deps.catalogue.purchaseTerms(nftId, tx).catch(() => undefined);
    if (!nft) return null;
    const v = { title: nft.title, imageUrl: nft.imageUrl };
    prizeNfts.set(nftId, v);
    return v;
  }

  /** Where a drawn lottery's prize is: an NFT's mint (the orders module), or a pool owed until paid. */
  async function deliveryOf(r: repo.LotteryRow): Promise<PrizeDelivery | null> {
    if (r.state !== "drawn") return null;
    if (r.prize_kind === "pool")
      return {
        state: r.prize_paid_at ? "paid" : "owed",
        txHash: null,
        tokenId: null,
        paidAt: r.prize_paid_at?.toISOString() ?? null,
      };
    const p = await deps.prizes?.statusOf(prizeSource(r.id));
    if (!p) return null;
    return {
      state: p.state,
      txHash: p.tx_hash,
      tokenId: p.state === "minted" ? p.token_number : null,
      paidAt: null,
    };
  }

  async function toApi(r: repo.LotteryRow, tx?: Tx): Promise<Lottery> {
    const drawn = r.state === "drawn" && r.draw_block_hash && r.ticket_list_hash;
    return {
      id: r.id,
      name: r.name,
      imageUrl: r.image_url,
      state: stateOf(r),
      ticketPriceCents: Number(r.ticket_price_cents),
      minTickets: r.min_tickets,
      maxTicketsPerUser: r.max_tickets_per_user,
      ticketsSold: Number(r.tickets_sold),
      players: r.players,
      salesCents: Number(r.tickets_sold) * Number(r.ticket_price_cents),
      prize:
        r.prize_kind === "nft"
          ? { kind: "nft", nftId: r.prize_nft_id as string }
          : { kind: "pool", amountCents: Number(r.prize_pool_cents) },
      prizeNft: await prizeNftOf(r.prize_nft_id, tx),
      rules: r.rules,
      opensAt: r.opens_at.toISOString(),
      closesAt: r.closes_at.toISOString(),
      seedHash: toHex(r.seed_hash),
      drawBlocks: r.draw_blocks,
      closeBlock: r.close_block === null ? null : Number(r.close_block),
      ticketListHash: r.ticket_list_hash ? toHex(r.ticket_list_hash) : null,
      draw: drawn
        ? {
            seed: toHex(r.seed),
            blockNumber: Number(r.draw_block),
            blockHash: toHex(r.draw_block_hash as Buffer),
            ticketListHash: toHex(r.ticket_list_hash as Buffer),
            winningTicket: Number(r.winning_ticket),
          }
        : null,
      outcome: r.outcome,
      prizeDelivery: await deliveryOf(r),
    };
  }

  function regions(): LotteryRegions {
    return deps.regions.all
      ? { all: true, allowed: [], notice: DEV_REGIONS_NOTICE }
      : { all: false, allowed: deps.regions.allowed, notice: null };
  }

  /** Checks an NFT prize and takes one of its editions for the winner (given back if the lottery is not drawn). */
  async function takePrize(tx: Tx, prize: LotteryInput["prize"]) {
    if (prize.kind === "nft") {
      await deps.catalogue.purchaseTerms(prize.nftId, tx).catch(() => {
        throw AppError.badRequest(m.prizeNftUnknown, { field: "prize.nftId" });
      });
      if (!(await deps.catalogue.takeEdition(tx, prize.nftId)))
        throw AppError.conflict(m.prizeNftSoldOut, { field: "prize.nftId" });
    }
  }
  async function returnPrize(tx: Tx, r: repo.LotteryRow) {
    if (r.prize_kind === "nft" && r.prize_nft_id) await deps.catalogue.returnEdition(tx, r.prize_nft_id);
  }

  function checkTimes(opensAt: Date, closesAt: Date) {
    if (closesAt.getTime() <= opensAt.getTime())
      throw AppError.validation("body", [{ field: "closesAt", message: m.closesBeforeOpens }]);
  }

  /** Live counts for everyone watching the lottery's page. */
  async function announce(tx: Tx, r: { id: string }) {
    if (!deps.pubsub) return;
    const fresh = await repo.findLottery(txq(tx), r.id);
    if (!fresh) return;
    await deps.pubsub
      .publish(
        lotteryChannel(r.id),
        {
          type: "lottery.updated",
          lotteryId: r.id,
          ticketsSold: Number(fresh.tickets_sold),
          players: fresh.players,
          state: stateOf(fresh),
        },
        { tx },
      )
      .catch((err) => log("warn", "could not publish a lottery update", { err: String(err) }));
  }

  /**
   * Closes one lottery whose closing time has passed (in one transaction, the row locked): below
   * its minimum it is not activated and every paid ticket order is refunded; otherwise tickets.csv
   * and its hash are published with the chain's latest block number. A second run finds it moved.
   */
  async function close(id: string): Promise<"closed" | "not_activated" | "skipped"> {
    // The chain's head is read before the transaction (no lock held over a network call).
    const head = deps.chain ? await deps.chain.publicClient.getBlockNumber({ cacheTime: 0 }) : null;
    return withTransaction(database, async (tx) => {
      const r = await repo.findLottery(txq(tx), id, true);
      const now = clock.date();
      if (r?.state !== "open" || r.closes_at.getTime() > now.getTime()) return "skipped";
      const sold = BigInt(r.tickets_sold);
      if (sold < BigInt(r.min_tickets)) {
        await endWithoutDraw(
          tx,
          r,
          "open",
          `not activated: ${sold} of the ${r.min_tickets} tickets needed were sold; every ticket is refunded`,
          "lottery_not_activated",
        );
        return "not_activated";
      }
      if (head === null) {
        // No chain: the draw cannot be made; the reveal timeout refunds the lottery.
        log("warn", "a lottery closed on a server without a chain", { lotteryId: id });
      }
      const ticketListHash = await repo.writeTicketList(txq(tx), id);
      await repo.setState(
        txq(tx),
        id,
        "open",
        {
          state: "closed",
          closed_at: now,
          close_block: head === null ? null : head.toString(),
          ticket_list_hash: ticketListHash,
        },
        now,
      );
      await announce(tx, r);
      log("info", "lottery closed", { lotteryId: id, tickets: sold.toString(), block: String(head) });
      return "closed";
    });
  }

  async function endWithoutDraw(
    tx: Tx,
    r: repo.LotteryRow,
    from: "open" | "closed",
    outcome: string,
    cause: RefundCause,
  ) {
    const now = clock.date();
    if (!(await repo.setState(txq(tx), r.id, from, { state: "not_activated", outcome }, now))) return;
    await returnPrize(tx, r);
    const orderIds = (await repo.rangesOf(txq(tx), r.id)).map((x) => x.order_id);
    await deps.onRefundAll?.(tx, r.id, orderIds, cause);
    await announce(tx, r);
    log("info", "lottery not activated", { lotteryId: r.id, orders: orderIds.length, cause });
  }

  /**
   * Draws a closed lottery once block (closing block + N) exists: the seed is revealed and the
   * winning ticket computed from public values only. Until then it waits (a quiet development chain
   * needs blocks mined); past the reveal timeout the lottery is refunded instead.
   */
  async function draw(id: string): Promise<"drawn" | "waiting" | "not_activated" | "skipped"> {
    const r = await repo.findLottery(q, id);
    if (r?.state !== "closed") return "skipped";
    const timedOut = clock.now() > (r.closed_at as Date).getTime() + deps.revealTimeoutMs;
    const target = r.close_block === null ? null : BigInt(r.close_block) + BigInt(r.draw_blocks);
    let block: { number: bigint; hash: Hash } | null = null;
    if (target !== null && deps.chain) {
      const head = await deps.chain.publicClient.getBlockNumber({ cacheTime: 0 });
      if (head >= target) {
        const b = await deps.chain.publicClient.getBlock({ blockNumber: target });
        block = { number: target, hash: b.hash as Hash };
      }
    }
    if (!block) {
      if (!timedOut) return "waiting";
      const ended = await withTransaction(database, async (tx) => {
        const locked = await repo.findLottery(txq(tx), id, true);
        if (locked?.state !== "closed") return false;
        await endWithoutDraw(
          tx,
          locked,
          "closed",
          "not activated: the draw's seed was not revealed in time after closing; every ticket is refunded",
          "lottery_seed_not_revealed",
        );
        return true;
      });
      return ended ? "not_activated" : "skipped";
    }
    const found = block;
    return withTransaction(database, async (tx) => {
      const locked = await repo.findLottery(txq(tx), id, true);
      if (locked?.state !== "closed" || !locked.ticket_list_hash) return "skipped";
      const sold = BigInt(locked.tickets_sold);
      const blockHash = Buffer.from(found.hash.slice(2), "hex");
      const ticket = winningTicket(locked.seed, blockHash, locked.ticket_list_hash, sold);
      const winner = await repo.entryHolding(txq(tx), id, ticket);
      if (!winner) throw new Error(`lottery ${id}: no order holds the winning ticket ${ticket}`);
      const now = clock.date();
      await repo.setState(
        txq(tx),
        id,
        "closed",
        {
          state: "drawn",
          draw_block: found.number.toString(),
          draw_block_hash: blockHash,
          winning_ticket: ticket.toString(),
          winner_order_id: winner.order_id,
          winner_user_id: winner.user_id,
          drawn_at: now,
          outcome: `drawn: ticket ${ticket} of ${sold} wins`,
        },
        now,
      );
      const drawn = await repo.findLottery(txq(tx), id);
      // The prize and the players' results commit with the draw: neither is lost nor repeated.
      if (locked.prize_kind === "nft" && locked.prize_nft_id && winner.user_id)
        await deps.prizes?.grant(tx, {
          source: prizeSource(id),
          userId: winner.user_id,
          nftId: locked.prize_nft_id,
        });
      await deps.jobs?.enqueue(lotteryResults, { lotteryId: id }, { tx, singletonKey: id });
      if (drawn) await deps.onDrawn?.(tx, drawn);
      await announce(tx, locked);
      log("info", "lottery drawn", {
        lotteryId: id,
        ticket: ticket.toString(),
        block: found.number.toString(),
      });
      return "drawn";
    });
  }

  /** Closes every lottery past its closing time and draws every closed one whose block exists. */
  async function tick(): Promise<{ closed: number; drawn: number; notActivated: number; waiting: number }> {
    const counts = { closed: 0, drawn: 0, notActivated: 0, waiting: 0 };
    for (const due of await repo.dueLotteries(q, clock.date(), 100)) {
      try {
        if (due.state === "open") {
          const r = await close(due.id);
          if (r === "closed") counts.closed++;
          if (r === "not_activated") counts.notActivated++;
        }
        const d = await draw(due.id);
        if (d === "drawn") counts.drawn++;
        if (d === "waiting") counts.waiting++;
        if (d === "not_activated") counts.notActivated++;
      } catch (err) {
        log("error", "could not close or draw a lottery", { lotteryId: due.id, err: String(err) });
      }
    }
    return counts;
  }

  return {
    regions,
    regionAllowed: (region: string) => regionAllowed(deps.regions, region),
    stateOf,
    toApi,
    tick,
    close,
    draw,

    async list(): Promise<LotteryList> {
      const rows = await repo.publicLotteries(q, new Date(clock.now() - 90 * 24 * 3600 * 1000), 50);
      return { items: await Promise.all(rows.map((r) => toApi(r))), regions: regions() };
    },

    async get(id: string): Promise<Lottery> {
      const r = await repo.findLottery(q, id);
      if (!r) throw AppError.notFound("Lottery");
      return toApi(r);
    },

    /** The winner history: real draws only, newest first. */
    async winners() {
      const rows = await repo.drawnLotteries(q, 20);
      return {
        items: rows.map((r) => ({
          lotteryId: r.id,
          name: r.name,
          drawnAt: r.drawn_at.toISOString(),
          winningTicket: Number(r.winning_ticket),
          winner: r.winner ?? "A former member",
          prize:
            r.prize_kind === "nft"
              ? { kind: "nft" as const, nftId: r.prize_nft_id as string }
              : { kind: "pool" as const, amountCents: Number(r.prize_pool_cents) },
        })),
      };
    },

    /** tickets.csv exactly as published at closing (409 before); never changes once written, so kept in memory. */
    async ticketsCsv(id: string): Promise<Buffer> {
      const kept = ticketLists.get(id);
      if (kept) return kept;
      const r = await repo.findLottery(q, id);
      if (!r) throw AppError.notFound("Lottery");
      const csv = await repo.ticketList(q, id);
      if (!csv) throw AppError.conflict("The ticket list is published when the lottery closes");
      ticketLists.set(id, csv);
      // The few most recently read (a list of a million tickets is about 8 MB).
      for (const old of ticketLists.keys()) if (ticketLists.size > 4) ticketLists.delete(old);
      return csv;
    },

    async myTickets(userId: string): Promise<MyTickets> {
      const entries = await repo.entriesOfUser(q, userId);
      const byLottery = new Map<string, repo.EntryRow[]>();
      for (const e of entries) byLottery.set(e.lottery_id, [...(byLottery.get(e.lottery_id) ?? []), e]);
      const items = [];
      for (const [lotteryId, es] of byLottery) {
        const r = await repo.findLottery(q, lotteryId);
        if (!r) continue;
        items.push({
          lottery: await toApi(r),
          ranges: es.map((e) => ({
            orderId: e.order_id,
            first: Number(e.first_ticket),
            last: Number(e.last_ticket),
          })),
          tickets: es.reduce((n, e) => n + Number(e.last_ticket) - Number(e.first_ticket) + 1, 0),
          won: r.state === "drawn" && es.some((e) => e.order_id === r.winner_order_id),
        });
      }
      items.sort((a, b) => b.lottery.closesAt.localeCompare(a.lottery.closesAt));
      return { items };
    },

    // ---- the console (modules/admin runs these in its audited transaction)

    async adminList(actor: LotteryActor): Promise<{ items: Lottery[] }> {
      return {
        items: await Promise.all((await repo.listLotteries(q, 200, actor.houseId)).map((r) => toApi(r))),
      };
    },

    /** Creates a lottery with a fresh secret seed; its hash is public from now on. */
    async create(tx: Tx, actor: LotteryActor, input: LotteryInput): Promise<Lottery> {
      const opensAt = new Date(input.opensAt);
      const closesAt = new Date(input.closesAt);
      checkTimes(opensAt, closesAt);
      await takePrize(tx, input.prize);
      const seed = randomBytes(32);
      const row = await repo.insertLottery(txq(tx), {
        name: input.name,
        imageUrl: input.image ?? null,
        productionHouseId: actor.houseId ?? null,
        ticketPriceCents: input.ticketPriceCents,
        minTickets: input.minTickets,
        maxTicketsPerUser: input.maxTicketsPerUser ?? null,
        prizeKind: input.prize.kind,
        prizeNftId: input.prize.kind === "nft" ? input.prize.nftId : null,
        prizePoolCents: input.prize.kind === "pool" ? input.prize.amountCents : null,
        rules: input.rules ?? "",
        opensAt,
        closesAt,
        seed,
        seedHash: sha256(seed),
        drawBlocks: deps.drawBlocks,
        createdBy: actor.id,
        now: clock.date(),
      });
      return toApi(row, tx);
    },

    /** Edits a lottery that has not opened yet (409 after). */
    async update(
      tx: Tx,
      actor: LotteryActor,
      id: string,
      patch: LotteryPatch,
    ): Promise<{ before: Lottery; after: Lottery }> {
      const r = await repo.findLottery(txq(tx), id, true);
      if (!r) throw AppError.notFound("Lottery");
      if (actor.houseId !== undefined && r.production_house_id !== actor.houseId)
        throw AppError.forbidden("This lottery belongs to another production house");
      if (r.state !== "open" || clock.now() >= r.opens_at.getTime())
        throw AppError.conflict(m.startedEditing);
      const opensAt = patch.opensAt ? new Date(patch.opensAt) : r.opens_at;
      const closesAt = patch.closesAt ? new Date(patch.closesAt) : r.closes_at;
      checkTimes(opensAt, closesAt);
      if (patch.prize) {
        await returnPrize(tx, r);
        await takePrize(tx, patch.prize);
      }
      const changes: repo.LotteryChanges = {};
      if (patch.name !== undefined) changes.name = patch.name;
      if (patch.image !== undefined) changes.image_url = patch.image;
      if (patch.ticketPriceCents !== undefined) changes.ticket_price_cents = patch.ticketPriceCents;
      if (patch.minTickets !== undefined) changes.min_tickets = patch.minTickets;
      if (patch.maxTicketsPerUser !== undefined) changes.max_tickets_per_user = patch.maxTicketsPerUser;
      if (patch.rules !== undefined) changes.rules = patch.rules;
      if (patch.opensAt !== undefined) changes.opens_at = opensAt;
      if (patch.closesAt !== undefined) changes.closes_at = closesAt;
      if (patch.prize) {
        changes.prize_kind = patch.prize.kind;
        changes.prize_nft_id = patch.prize.kind === "nft" ? patch.prize.nftId : null;
        changes.prize_pool_cents = patch.prize.kind === "pool" ? patch.prize.amountCents : null;
      }
      const before = await toApi(r, tx);
      if (Object.keys(changes).length === 0) return { before, after: before };
      const after = await toApi(await repo.updateLottery(txq(tx), id, changes, clock.date()), tx);
      return { before, after };
    },

    /**
     * Records that a drawn lottery's prize pool was paid to its winner (the console, audited by the
     * admin module in `tx`); once: 409 when there is nothing owed.
     */
    async payPrize(
      tx: Tx,
      actorId: string,
      id: string,
      reference: string,
    ): Promise<{ before: Lottery; after: Lottery }> {
      const r = await repo.findLottery(txq(tx), id, true);
      if (!r) throw AppError.notFound("Lottery");
      const before = await toApi(r, tx);
      if (r.state === "drawn" && r.prize_kind === "pool" && !r.prize_paid_at && r.winner_user_id) {
        const state = await deps.kyc.stateOf(r.winner_user_id, txq(tx));
        if (state !== "verified")
          throw new AppError("kyc_required", kycMessages.payoutNeedsKyc("The winner", state), { state });
      }
      if (!(await repo.markPrizePaid(txq(tx), id, { by: actorId, reference, now: clock.date() })))
        throw AppError.conflict(m.prizeNotOwed);
      log("info", "lottery prize pool paid", { lotteryId: id, by: actorId });
      return { before, after: await toApi((await repo.findLottery(txq(tx), id)) as repo.LotteryRow, tx) };
    },

    /** What the players' results say: the lottery, its winner, every player and where the prize is. */
    async resultFacts(id: string) {
      const r = await repo.findLottery(q, id);
      if (r?.state !== "drawn") return undefined;
      return {
        lottery: await toApi(r),
        winnerUserId: r.winner_user_id,
        players: (await repo.playersOf(q, id)).map((p) => ({
          userId: p.user_id,
          tickets: Number(p.tickets),
        })),
      };
    },

    /** The prize NFT's lottery scope for the console (which production house the lottery belongs to). */
    async houseOf(id: string): Promise<number | null> {
      const r = await repo.findLottery(q, id);
      if (!r) throw AppError.notFound("Lottery");
      return r.production_house_id;
    },

    // ---- ticket orders (the orders module calls these)

    /** What the orders module shows of ticket orders: each lottery's name and image, each paid order's range. */
    async ticketOrderFacts(lotteryIds: string[], orderIds: string[]) {
      const lotteries = new Map<string, { name: string; imageUrl: string }>();
      for (const l of await repo.namesOf(q, [...new Set(lotteryIds)])) {
        const image = l.image_url ?? (await prizeNftOf(l.prize_nft_id))?.imageUrl ?? "";
        lotteries.set(l.id, { name: l.name, imageUrl: image });
      }
      const ranges = new Map<string, { first: number; last: number }>();
      for (const e of await repo.entriesOfOrders(q, orderIds))
        ranges.set(e.order_id, { first: Number(e.first_ticket), last: Number(e.last_ticket) });
      return { lotteries, ranges };
    },

    /**
     * What a new ticket order may buy, checked before its checkout is opened: the lottery open now,
     * the buyer's region allowed, the count within the per-user cap counting `pendingTickets` (the
     * buyer's unpaid ticket orders of this lottery). Returns the price in USD cents.
     */
    async ticketTerms(
      tx: Tx,
      userId: string,
      id: string,
      count: number,
      region: string,
      pendingTickets: number,
    ): Promise<{ usdCents: bigint; closesAt: Date; name: string }> {
      if (!regionAllowed(deps.regions, region)) throw AppError.forbidden(m.regionNotAllowed);
      const r = await repo.findLottery(txq(tx), id);
      if (!r) throw AppError.notFound("Lottery");
      const state = stateOf(r);
      if (state === "scheduled") throw AppError.conflict(m.notYetOpen);
      if (state !== "open") throw AppError.conflict(m.closed);
      if (r.max_tickets_per_user !== null) {
        const held = (await repo.ticketsOfUser(txq(tx), id, userId)) + pendingTickets + count;
        if (held > r.max_tickets_per_user)
          throw AppError.validation("body", [
            { field: "count", message: m.overCap(r.max_tickets_per_user, held) },
          ]);
      }
      return { usdCents: BigInt(r.ticket_price_cents) * BigInt(count), closesAt: r.closes_at, name: r.name };
    },

    /**
     * Gives a paid ticket order its tickets, in the transaction that marks it paid: the next
     * contiguous range in payment order (the lottery row is locked, so payments are numbered one at
     * a time), with tickets sold and players updated in the same transaction. Once per order (a second
     * call answers the same range). A lottery no longer open refuses: the payment is refunded.
     */
    async assignTickets(
      tx: Tx,
      p: { lotteryId: string; orderId: string; userId: string; count: number },
    ): Promise<{ first: bigint; last: bigint } | { refused: string }> {
      const existing = await repo.entryOf(txq(tx), p.orderId);
      if (existing) return { first: BigInt(existing.first_ticket), last: BigInt(existing.last_ticket) };
      const r = await repo.findLottery(txq(tx), p.lotteryId, true);
      if (!r) return { refused: "the lottery no longer exists" };
      const now = clock.date();
      if (r.state !== "open" || now.getTime() >= r.closes_at.getTime())
        return { refused: "the lottery had closed when the payment arrived" };
      const count = BigInt(p.count);
      const first = BigInt(r.tickets_sold) + 1n;
      const last = first + count - 1n;
      const newPlayer = !(await repo.hasEntry(txq(tx), p.lotteryId, p.userId));
      await repo.insertEntry(txq(tx), { ...p, first, last, paidAt: now });
      await repo.addSale(txq(tx), p.lotteryId, count, newPlayer, now);
      await announce(tx, r);
      return { first, last };
    },
  };
}

export type LotteryService = ReturnType<typeof createLotteryService>;

// Data rights (decision 170): this module's part of the archive and of the erasure.
export { exportLottery } from "./personal-data.ts";
