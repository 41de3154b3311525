// The studio console (issue 13 point 3, decision 132): who may change what, and the audit log.
// Every console write runs in one transaction with its audit row (who, what, when, before, after);
// once it commits, the catalogue's caches are dropped here and, through pub/sub, in every other
// process, so the public pages show the change at once. The catalogue, blog, accounts, contact and
// newsletter modules own their tables: this module calls their services only.
import type { Db } from "../../db/client.ts";
import type {
  AdminFilm,
  AdminNft,
  AdminPost,
  AdminUser,
  AuditEntry,
  Celebrity,
  ConsoleMe,
  HiddenToken,
  Studio,
  UploadPurpose,
} from "@diginoor/api/admin";
import type { Lottery, LotteryInput, LotteryPatch } from "@diginoor/api/lottery";
import type { z } from "zod";
import type {
  adminPostInputSchema,
  adminPostPatchSchema,
  celebrityInputSchema,
  filmInputSchema,
  filmPatchSchema,
  hideTokenInputSchema,
  nftInputSchema,
  nftPatchSchema,
  studioInputSchema,
} from "@diginoor/api/admin";
import type { Database } from "../../db/client.ts";
import type { Storage } from "../../lib/storage/storage.ts";
import type { PubSub } from "../../platform/pubsub/pubsub.ts";
import type { CatalogueService } from "../catalogue/service.ts";
import type { ContactService } from "../contact/service.ts";
import type { EarningsService } from "../earnings/service.ts";
import type { LotteryService } from "../lottery/service.ts";
import type { NewsletterService } from "../newsletter/service.ts";
import type { PortabilityService } from "../portability/service.ts";
import type { CardFulfilment, EditionRegistry, HostedCheckout } from "../orders/service.ts";
import type { AuthUser } from "../../http/access.ts";
import { AppError } from "../../http/errors.ts";
import { pageOf } from "../../lib/paging.ts";
import { type Tx, withTransaction } from "../../platform/tx.ts";
import { type AccountsService, staffView } from "../accounts/service.ts";
import { postsAdmin } from "../blog/service.ts";
import {
  celebritiesAdmin,
  filmsAdmin,
  type MetadataSubject,
  metadataSources,
  nftsAdmin,
  studios,
} from "../catalogue/service.ts";
import { type Rendition, checkImage, renderImage } from "../media/service.ts";
import { sha256Hex } from "../../lib/storage/storage.ts";
import * as repo from "./repo.ts";

/** The pub/sub channel on which a console write tells every process to drop its catalogue caches. */
export const CATALOGUE_CHANGED = "catalogue.changed";

/** Whether a CATALOGUE_CHANGED message came from another process than `processId`. */
export function fromAnotherProcess(message: unknown, processId: string): boolean {
  return (message as { from?: unknown } | null)?.from !== processId;
}

/** Renditions of a console upload, by purpose (all WebP, cropped to fill). */
export const UPLOAD_RENDITIONS: Record<UploadPurpose, (Rendition & { name: string })[]> = {
  nft: [
    { name: "image", suffix: "", width: 1000, height: 1000 },
    { name: "thumbnail", suffix: "-400", width: 400, height: 400 },
  ],
  film: [
    { name: "poster", suffix: "", width: 600, height: 900 },
    { name: "banner", suffix: "-banner", width: 1600, height: 500 },
    { name: "thumbnail", suffix: "-400", width: 400, height: 400 },
  ],
  studio: [{ name: "logo", suffix: "", width: 400, height: 400 }],
  post: [{ name: "cover", suffix: "", width: 1200, height: 630 }],
};

type Parsed<S extends z.ZodType> = z.output<S>;

function auditView(r: repo.AuditRow): AuditEntry {
  return {
    id: r.id,
    actorId: r.actorId,
    actorEmail: r.actorEmail,
    actorRole: r.actorRole,
    action: r.action,
    subjectType: r.subjectType,
    subjectId: r.subjectId,
    before: (r.before as Record<string, unknown> | null) ?? null,
    after: (r.after as Record<string, unknown> | null) ?? null,
    createdAt: r.createdAt.toISOString(),
  };
}

function hiddenView(r: repo.HiddenTokenRow): HiddenToken {
  return { tokenId: r.tokenId, reason: r.reason, note: r.note, createdAt: r.createdAt.toISOString() };
}

/** The console's actor: a signed-in administrator or studio account (the HTTP layer let it in). */
export type Actor = AuthUser;

/** The production house a studio account is limited to; undefined for administrators; 403 for others. */
/** Which of some token ids the console has hidden from our marketplace (for the market reads). */
export function hiddenTokensReader(db: Db): (tokenIds: string[]) => Promise<Set<string>> {
  return (tokenIds) => repo.hiddenAmong(db, tokenIds);
}

export function houseScope(actor: Actor): number | undefined {
  if (actor.role === "admin") return undefined;
  if (actor.role === "studio" && actor.productionHouseId) return actor.productionHouseId;
  throw AppError.forbidden("Only administrators and studio accounts can do that");
}

function requireAdminRole(actor: Actor): void {
  if (actor.role !== "admin") throw AppError.forbidden("Only administrators can do that");
}

function notYours(what: string): AppError {
  return AppError.forbidden(`This ${what} belongs to another production house`);
}

/** What the console uses: the services of the modules it changes, and its own table. */
export interface AdminDeps {
  database: Database;
  pubsub: PubSub;
  storage: Storage;
  /**
   * This process, named in its catalogue messages: it has dropped its own caches already when it
   * hears one back (bootstrap.ts names each process once).
   */
  processId: string;
  catalogue: Pick<CatalogueService, "invalidate">;
  lottery: Pick<LotteryService, "adminList" | "create" | "update" | "payPrize">;
  orders: {
    fulfilment: Pick<CardFulfilment, "retryFulfilment">;
    hostedCheckout: Pick<HostedCheckout, "adminRefund">;
    editions: Pick<EditionRegistry, "queue">;
  };
  contact: Pick<ContactService, "inbox">;
  newsletter: Pick<NewsletterService, "exportCsv">;
  portability: Pick<PortabilityService, "exitToIpfs" | "chainMetadata" | "announceMetadataChange">;
  earnings: Pick<EarningsService, "recordPayout">;
  accounts: Pick<AccountsService, "getAccount" | "listAccounts" | "setAccountSuspended" | "setAccountRole">;
}

export function createAdminService(deps: AdminDeps) {
  const { contact, newsletter } = deps;
  const ctx = { ...deps, db: deps.database.db };

  /**
   * Runs one console write and its audit row in a transaction. `catalogue`: the write changes what
   * the public pages show, so every process drops its caches once it commits.
   */
  async function audited<T>(
    actor: Actor,
    action: string,
    subjectType: string,
    o: { catalogue: boolean },
    run: (tx: Tx) => Promise<{ result: T; subjectId: string; before: unknown; after: unknown }>,
  ): Promise<T> {
    return withTransaction(ctx.database, async (tx) => {
      const r = await run(tx);
      await repo.insertAudit(tx.db, {
        actorId: actor.id,
        actorEmail: actor.email ?? "",
        actorRole: actor.role,
        action,
        subjectType,
        subjectId: r.subjectId,
        before: r.before ?? null,
        after: r.after ?? null,
      });
      if (o.catalogue) {
        // This process at once (the answer's next read sees it), the others through pub/sub.
        tx.afterCommit(() => ctx.catalogue.invalidate());
        await ctx.pubsub.publish(CATALOGUE_CHANGED, { action, from: ctx.processId }, { tx });
      }
      return r.result;
    });
  }

  const created = <T extends { id: number | string }>(result: T) => ({
    result,
    subjectId: String(result.id),
    before: null,
    after: result,
  });
  const changed = <T extends { id: number | string }>(c: { before: T; after: T }) => ({
    result: c.after,
    subjectId: String(c.after.id),
    before: c.before,
    after: c.after,
  });
  const catalogueWrite = { catalogue: true };

  /**
   * Runs a console write of an NFT, film, star or studio and, when it changed what minted tokens' metadata
   * says (the fields tokenURI's JSON shows, read before and after in the write's transaction), enqueues the
   * ERC-4906 refresh of those tokens in the same transaction (issue 37, decision 180).
   */
  async function announcing<T>(tx: Tx, of: MetadataSubject, action: string, write: () => Promise<T>) {
    const before = await metadataSources.read(tx.db, of);
    const result = await write();
    const after = await metadataSources.read(tx.db, of);
    await ctx.portability.announceMetadataChange(tx, metadataSources.changed(before, after), action);
    return result;
  }

  async function ownFilm(db: Tx["db"], actor: Actor, id: number): Promise<void> {
    const scope = houseScope(actor);
    if (scope === undefined) return;
    const film = await filmsAdmin.get(db, id);
    if (film.productionHouseId !== scope) throw notYours("film");
  }

  return {
    async me(actor: Actor): Promise<ConsoleMe> {
      const scope = houseScope(actor);
      if (scope === undefined) return { role: "admin", productionHouse: null };
      const house = await studios.get(ctx.db, scope);
      return { role: "studio", productionHouse: { id: house.id, name: house.name } };
    },

    // ---- studios: administrators; a studio account sees its own

    listStudios: async (actor: Actor) => ({ items: await studios.list(ctx.db, houseScope(actor)) }),
    createStudio(actor: Actor, input: Parsed<typeof studioInputSchema>): Promise<Studio> {
      requireAdminRole(actor);
      return audited(actor, "studio.create", "studio", catalogueWrite, async (tx) =>
        created(await studios.create(tx.db, input)),
      );
    },
    updateStudio(
      actor: Actor,
      id: number,
      patch: Partial<Parsed<typeof studioInputSchema>>,
    ): Promise<Studio> {
      requireAdminRole(actor);
      return audited(actor, "studio.update", "studio", catalogueWrite, async (tx) =>
        changed(
          await announcing(tx, { productionHouseId: id }, "studio.update", () =>
            studios.update(tx.db, id, patch),
          ),
        ),
      );
    },

    // ---- celebrities: administrators write; studio accounts read (their NFT forms name one)

    listCelebrities: async (actor: Actor) => {
      houseScope(actor);
      return { items: await celebritiesAdmin.list(ctx.db) };
    },
    createCelebrity(actor: Actor, input: Parsed<typeof celebrityInputSchema>): Promise<Celebrity> {
      requireAdminRole(actor);
      return audited(actor, "celebrity.create", "celebrity", catalogueWrite, async (tx) =>
        created(await celebritiesAdmin.create(tx.db, input)),
      );
    },
    updateCelebrity(
      actor: Actor,
      id: number,
      patch: Partial<Parsed<typeof celebrityInputSchema>>,
    ): Promise<Celebrity> {
      requireAdminRole(actor);
      return audited(actor, "celebrity.update", "celebrity", catalogueWrite, async (tx) =>
        changed(
          await announcing(tx, { celebrityId: id }, "celebrity.update", () =>
            celebritiesAdmin.update(tx.db, id, patch),
          ),
        ),
      );
    },

    // ---- films: a studio account manages its own house's only

    listFilms: async (actor: Actor) => ({ items: await filmsAdmin.list(ctx.db, houseScope(actor)) }),
    createFilm(actor: Actor, input: Parsed<typeof filmInputSchema>): Promise<AdminFilm> {
      const scope = houseScope(actor);
      const values = scope === undefined ? input : { ...input, productionHouseId: scope };
      return audited(actor, "film.create", "film", catalogueWrite, async (tx) =>
        created(await filmsAdmin.create(tx.db, values)),
      );
    },
    async updateFilm(actor: Actor, id: number, patch: Parsed<typeof filmPatchSchema>): Promise<AdminFilm> {
      const scope = houseScope(actor);
      let values = patch;
      if (scope !== undefined) {
        // A studio account cannot give its film away to another house (403); naming its own
        // house changes nothing, and a patch of nothing else answers the film as it is, unwritten.
        const { productionHouseId, ...rest } = patch;
        if (productionHouseId !== undefined && productionHouseId !== scope)
          throw AppError.forbidden("A studio account cannot move a film to another production house");
        values = rest;
        if (Object.values(rest).every((v) => v === undefined)) {
          await ownFilm(ctx.db, actor, id);
          return filmsAdmin.get(ctx.db, id);
        }
      }
      return audited(actor, "film.update", "film", catalogueWrite, async (tx) => {
        await ownFilm(tx.db, actor, id);
        return changed(
          await announcing(tx, { filmId: id }, "film.update", () => filmsAdmin.update(tx.db, id, values)),
        );
      });
    },

    // ---- NFTs (media, edition size, price, tier, sale type, an auction's reserve and length)

    listNfts: async (actor: Actor) => ({ items: await nftsAdmin.list(ctx.db, houseScope(actor)) }),
    createNft(actor: Actor, input: Parsed<typeof nftInputSchema>): Promise<AdminNft> {
      return audited(actor, "nft.create", "nft", catalogueWrite, async (tx) => {
        await ownFilm(tx.db, actor, input.filmId);
        const nft = await nftsAdmin.create(tx.db, input);
        // Its edition count goes on chain (decision 184), once this transaction commits.
        await ctx.orders.editions.queue(tx, nft.id);
        return created(nft);
      });
    },
    updateNft(actor: Actor, id: string, patch: Parsed<typeof nftPatchSchema>): Promise<AdminNft> {
      return audited(actor, "nft.update", "nft", catalogueWrite, async (tx) => {
        const scope = houseScope(actor);
        if (scope !== undefined) {
          const nft = await nftsAdmin.get(tx.db, id);
          if (nft.productionHouseId !== scope) throw notYours("NFT");
          if (patch.filmId !== undefined) await ownFilm(tx.db, actor, patch.filmId);
        }
        const c = await announcing(tx, { nftId: id }, "nft.update", () => nftsAdmin.update(tx.db, id, patch));
        if (patch.editionSize !== undefined) await ctx.orders.editions.queue(tx, id);
        return changed(c);
      });
    },

    // ---- posts: administrators

    listPosts: async (actor: Actor) => {
      requireAdminRole(actor);
      return { items: await postsAdmin.list(ctx.db) };
    },
    async createPost(actor: Actor, input: Parsed<typeof adminPostInputSchema>): Promise<AdminPost> {
      requireAdminRole(actor);
      const author = input.author ?? (await deps.accounts.getAccount(actor.id)).name;
      return audited(actor, "post.create", "post", catalogueWrite, async (tx) => {
        const post = await postsAdmin.create(tx.db, { ...input, author });
        return { result: post, subjectId: post.slug, before: null, after: post };
      });
    },
    updatePost(actor: Actor, slug: string, patch: Parsed<typeof adminPostPatchSchema>): Promise<AdminPost> {
      requireAdminRole(actor);
      return audited(actor, "post.update", "post", catalogueWrite, async (tx) => {
        const c = await postsAdmin.update(tx.db, slug, patch);
        return { result: c.after, subjectId: slug, before: c.before, after: c.after };
      });
    },

    // ---- users: administrators

    listUsers(actor: Actor, q: { q?: string; cursor?: string }) {
      requireAdminRole(actor);
      return deps.accounts.listAccounts({ ...q, limit: 50 });
    },
    /** Queues a paid card order's mint again (its fulfilment failed); audited. Administrators only. */
    retryOrderFulfilment(actor: Actor, orderId: string) {
      return audited(actor, "order.retry_fulfilment", "order", { catalogue: false }, async (tx) => {
        const result = await ctx.orders.fulfilment.retryFulfilment(orderId, tx);
        return {
          result,
          subjectId: orderId,
          before: { state: result.state },
          after: { queued: result.queued },
        };
      });
    },

    /**
     * The console's Refund (decision 144): a fulfilled card or rupee order refunded in full through its
     * provider (the token stays with the buyer), or a failed refund tried again; audited, in the
     * transaction that requests it. Administrators only.
     */
    refundOrder(actor: Actor, orderId: string) {
      return audited(actor, "order.refund", "order", { catalogue: false }, async (tx) => {
        const r = await ctx.orders.hostedCheckout.adminRefund(orderId, actor.id, tx);
        return {
          result: { orderId: r.orderId, state: r.state, queued: r.queued },
          subjectId: orderId,
          before: { state: r.before },
          after: { state: r.state },
        };
      });
    },

    // ---- lotteries: administrators, or a studio account for its own production house (decision 161)

    listLotteries(actor: Actor) {
      return ctx.lottery.adminList({ id: actor.id, houseId: houseScope(actor) });
    },
    createLottery(actor: Actor, input: LotteryInput): Promise<Lottery> {
      const houseId = houseScope(actor);
      return audited(actor, "lottery.create", "lottery", { catalogue: false }, async (tx) => {
        if (houseId !== undefined && input.prize.kind === "nft") {
          const nft = await nftsAdmin.get(tx.db, input.prize.nftId).catch(() => undefined);
          if (nft && nft.productionHouseId !== houseId) throw notYours("NFT");
        }
        // The secret seed never enters the audit log: the lottery's public view does.
        return created(await ctx.lottery.create(tx, { id: actor.id, houseId }, input));
      });
    },
    updateLottery(actor: Actor, id: string, patch: LotteryPatch): Promise<Lottery> {
      const houseId = houseScope(actor);
      return audited(actor, "lottery.update", "lottery", { catalogue: false }, async (tx) => {
        if (houseId !== undefined && patch.prize?.kind === "nft") {
          const nft = await nftsAdmin.get(tx.db, patch.prize.nftId).catch(() => undefined);
          if (nft && nft.productionHouseId !== houseId) throw notYours("NFT");
        }
        return changed(await ctx.lottery.update(tx, { id: actor.id, houseId }, id, patch));
      });
    },

    /** A drawn lottery's prize pool paid to its winner (decision 161): recorded once, audited; administrators only. */
    payLotteryPrize(actor: Actor, id: string, reference: string): Promise<Lottery> {
      requireAdminRole(actor);
      return audited(actor, "lottery.prize_paid", "lottery", { catalogue: false }, async (tx) => {
        const c = await ctx.lottery.payPrize(tx, actor.id, id, reference);
        return { ...changed(c), after: { ...c.after, paymentReference: reference } };
      });
    },

    /** A payout to a production house out of its earnings (decision 174): administrators only, KYC and balance checked, audited. */
    recordStudioPayout(
      actor: Actor,
      houseId: number,
      input: { currency: "inr" | "usd" | "wei"; amountMinor: string; reference: string },
    ) {
      requireAdminRole(actor);
      return audited(actor, "studio.payout", "studio", { catalogue: false }, async (tx) => {
        const payout = await ctx.earnings.recordPayout(tx, actor.id, houseId, input);
        return { result: payout, subjectId: String(houseId), before: null, after: { ...payout, houseId } };
      });
    },

    setSuspended(actor: Actor, id: string, suspended: boolean): Promise<AdminUser> {
      requireAdminRole(actor);
      if (suspended && id === actor.id) throw AppError.conflict("You cannot suspend your own account");
      const action = suspended ? "user.suspend" : "user.unsuspend";
      return audited(actor, action, "user", { catalogue: false }, async (tx) => {
        const c = await deps.accounts.setAccountSuspended(tx, id, suspended);
        return changed({ before: staffView(c.before), after: staffView(c.after) });
      });
    },
    setRole(
      actor: Actor,
      id: string,
      input: { role: AdminUser["role"]; productionHouseId: number | null },
    ): Promise<AdminUser> {
      requireAdminRole(actor);
      if (id === actor.id && input.role !== "admin") {
        throw AppError.conflict("You cannot take the administrator role from your own account");
      }
      return audited(actor, "user.set_role", "user", { catalogue: false }, async (tx) => {
        if (input.productionHouseId !== null) await studios.get(tx.db, input.productionHouseId);
        const c = await deps.accounts.setAccountRole(tx, id, input.role, input.productionHouseId);
        return changed({ before: staffView(c.before), after: staffView(c.after) });
      });
    },

    // ---- inbox, newsletter, audit log: administrators

    contactMessages(actor: Actor, page: { before?: number; limit: number }) {
      requireAdminRole(actor);
      return contact.inbox(page);
    },
    /** The subscriber list as CSV; the export itself is audited (it is personal data leaving the system). */
    async newsletterCsv(actor: Actor): Promise<string> {
      requireAdminRole(actor);
      const { csv, count } = await newsletter.exportCsv();
      await audited(actor, "newsletter.export", "newsletter", { catalogue: false }, async () => ({
        result: undefined,
        subjectId: "subscribers",
        before: null,
        after: { count },
      }));
      return csv;
    },
    async auditLog(actor: Actor, page: { before?: number; limit: number }) {
      requireAdminRole(actor);
      const rows = await repo.listAudit(ctx.db, { before: page.before, limit: page.limit + 1 });
      return pageOf(rows, page.limit, auditView, (r) => String(r.id));
    },

    // ---- tokens hidden from our marketplace (the terms' suspension and voiding): administrators

    async hiddenTokens(actor: Actor) {
      requireAdminRole(actor);
      return { items: (await repo.listHiddenTokens(ctx.db)).map(hiddenView) };
    },
    hideToken(
      actor: Actor,
      tokenId: string,
      input: Parsed<typeof hideTokenInputSchema>,
    ): Promise<HiddenToken> {
      requireAdminRole(actor);
      return audited(actor, "token.hide", "token", catalogueWrite, async (tx) => {
        const before = await repo.findHiddenToken(tx.db, tokenId);
        const after = hiddenView(
          await repo.upsertHiddenToken(tx.db, { tokenId, ...input, hiddenBy: actor.id }),
        );
        return { result: after, subjectId: tokenId, before: before ? hiddenView(before) : null, after };
      });
    },
    unhideToken(actor: Actor, tokenId: string): Promise<void> {
      requireAdminRole(actor);
      return audited(actor, "token.unhide", "token", catalogueWrite, async (tx) => {
        const before = await repo.deleteHiddenToken(tx.db, tokenId);
        if (!before) throw AppError.notFound("Hidden token");
        return { result: undefined, subjectId: tokenId, before: hiddenView(before), after: null };
      });
    },
    /** Which of `tokenIds` are hidden from our marketplace (for the marketplace's reads). */
    hiddenAmong: (tokenIds: string[]) => repo.hiddenAmong(ctx.db, tokenIds),

    // ---- the chain: where token URIs point, and the exit to an IPFS snapshot (decision 173): administrators

    chainMetadata(actor: Actor) {
      requireAdminRole(actor);
      return ctx.portability.chainMetadata();
    },
    /**
     * Points the collectible's base URI at `ipfs://<root>/metadata/`. The transaction is sent and mined
     * (its BatchMetadataUpdate seen) first, outside any database transaction (it reads the indexer's
     * tables, and a chain call must not hold a connection); then its audit row is written. A refused
     * call (not a directory CID, no admin key) changes nothing and leaves no row.
     */
    async exitToIpfs(actor: Actor, rootCid: string) {
      requireAdminRole(actor);
      const { before, ...result } = await ctx.portability.exitToIpfs(rootCid);
      return audited(actor, "chain.ipfs_exit", "collectible", { catalogue: false }, async () => ({
        result,
        subjectId: result.rootCid,
        before: { baseUri: before },
        after: { baseUri: result.baseUri, txHash: result.txHash },
      }));
    },

    // ---- image upload (administrators and studio accounts)

    /**
     * Checks an uploaded image by content, re-encodes it to WebP renditions (as avatar uploads do)
     * and stores them under the content hash of the upload; answers their URLs by name.
     */
    async uploadImage(actor: Actor, purpose: UploadPurpose, data: Buffer): Promise<Record<string, string>> {
      houseScope(actor);
      await checkImage(data);
      const renditions = UPLOAD_RENDITIONS[purpose];
      const rendered = await renderImage(data, renditions);
      // Named by the content hash: the same upload twice is the same object, and a name never changes.
      const base = `console/${purpose}/${sha256Hex(data).slice(0, 32)}`;
      const images: Record<string, string> = {};
      for (const [i, r] of rendered.entries()) {
        const key = `${base}${r.suffix}.webp`;
        await ctx.storage.put(key, r.data, "image/webp");
        images[renditions[i]?.name ?? r.suffix] = ctx.storage.url(key);
      }
      return audited(actor, "image.upload", "image", { catalogue: false }, async () => ({
        result: images,
        subjectId: base,
        before: null,
        after: images,
      }));
    },
  };
}

export type AdminService = ReturnType<typeof createAdminService>;

// Data rights (decision 170): this module's part of the archive and of the erasure.
export { exportAuditEntries, pseudonymiseAuditEntries } from "./personal-data.ts";
