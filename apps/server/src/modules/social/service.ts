import type {
  ActivityEntry,
  ActivityFeed,
  ActivityTag,
  BidState,
  LikesList,
  MyBid,
  MyBids,
  NftLikes,
  PublicProfile,
  Showcase,
  ShowcaseToken,
  ShowcaseUpdate,
  UserList,
} from "@diginoor/api/social";
import { socialMessages } from "@diginoor/api/social";
import { formatNative } from "@diginoor/api/money";
import type { Database } from "../../db/client.ts";
import { AppError } from "../../http/errors.ts";
import type { Clock } from "../../platform/clock.ts";
import { withTransaction } from "../../platform/tx.ts";
import type { AccountsService, PublicAccount } from "../accounts/service.ts";
import type { CatalogueService } from "../catalogue/service.ts";
import type { TokenReads } from "../indexer/service.ts";
import type { NotificationsService } from "../notifications/service.ts";
import type { WalletsService } from "../wallets/service.ts";
import * as repo from "./repo.ts";

export interface SocialDeps {
  database: Database;
  clock: Clock;
  /** Public profiles of accounts (by handle, by id). */
  accounts: Pick<AccountsService, "publicAccountByHandle" | "publicAccountsByIds">;
  catalogue: Pick<CatalogueService, "catalogueNumberOf" | "nftsByCatalogueNumber">;
  tokens: Pick<TokenReads, "tokensOfAccounts" | "bidsOf" | "activityOfAccounts">;
  wallets: Pick<WalletsService, "list" | "ownerOf">;
  notifications: Pick<NotificationsService, "notify">;
  /** The chain whose tokens showcases show; none without a chain. */
  chainId?: number;
  symbol: string;
}

const LIST_SIZE = 200;
const FEED_SIZE = 100;

const amount = (wei: string | null, symbol: string) => (wei ? formatNative(wei, symbol) : "");

const card = (a: PublicAccount) => ({ handle: a.handle, name: a.name, avatarUrl: a.avatarUrl });

/**
 * Likes, follows, public profiles and showcases (decision 151). Owns nft_likes, follows and
 * showcase_items; reads accounts, wallets, the catalogue and the indexer only through their services.
 */
export function createSocialService(deps: SocialDeps) {
  const { database, clock } = deps;
  const q: repo.Query = (t, p) => database.query(t, p);

  async function accountOf(handle: string): Promise<PublicAccount> {
    const account = await deps.accounts.publicAccountByHandle(handle);
    if (!account) throw AppError.notFound("User");
    return account;
  }

  async function addressesOf(userId: string): Promise<string[]> {
    return (await deps.wallets.list(userId)).map((w) => w.address);
  }

  async function likes(nftIds: string[], viewerId: string | null): Promise<LikesList> {
    const counts = await repo.likesOf(q, nftIds, viewerId);
    return {
      items: nftIds.map((nftId) => ({
        nftId,
        count: counts.get(nftId)?.count ?? 0,
        liked: counts.get(nftId)?.liked ?? false,
      })),
    };
  }

  async function likesOfOne(nftId: string, viewerId: string): Promise<NftLikes> {
    return (await likes([nftId], viewerId)).items[0] as NftLikes;
  }

  async function profileOf(account: PublicAccount, viewerId: string | null): Promise<PublicProfile> {
    const [counts, wallets] = await Promise.all([
      repo.followCounts(q, account.id, viewerId),
      deps.wallets.list(account.id),
    ]);
    const wallet = wallets.find((w) => w.receivesPurchases) ?? wallets[0];
    return {
      ...card(account),
      coverUrl: account.coverUrl,
      wallet: wallet?.address ?? null,
      followers: counts.followers,
      following: counts.following,
      followedByMe: counts.followedByViewer,
      isMe: viewerId === account.id,
      memberSince: new Date(account.createdAt).toISOString(),
    };
  }

  /** The user's tokens with their arrangement; hidden ones only when `withHidden`. */
  async function showcaseOf(userId: string, withHidden: boolean): Promise<Showcase> {
    if (deps.chainId === undefined) return { items: [] };
    const [tokens, arranged] = await Promise.all([
      deps.tokens.tokensOfAccounts(await addressesOf(userId)),
      repo.showcaseOf(q, userId, deps.chainId),
    ]);
    const arrangement = new Map(arranged.map((r) => [r.token_id, r]));
    const rank = (tokenId: string) => {
      const a = arrangement.get(tokenId);
      if (!a) return [2, 0] as const;
      return [a.pinned ? 0 : 1, a.position] as const;
    };
    const items: ShowcaseToken[] = tokens
      .map((t) => ({
        ...t,
        pinned: arrangement.get(t.tokenId)?.pinned ?? false,
        hiddenFromShowcase: arrangement.get(t.tokenId)?.hidden ?? false,
      }))
      .filter((t) => withHidden || !t.hiddenFromShowcase)
      .sort((a, b) => {
        const [ga, pa] = rank(a.tokenId);
        const [gb, pb] = rank(b.tokenId);
        if (ga !== gb) return ga - gb;
        if (pa !== pb) return pa - pb;
        const d = BigInt(a.tokenId) - BigInt(b.tokenId);
        return d < 0n ? -1 : d > 0n ? 1 : 0;
      });
    return { items };
  }

  /** The state of each bid (see decision 151). */
  function bidState(
    bid: Awaited<ReturnType<TokenReads["bidsOf"]>>[number],
    mine: Set<string>,
    won: Set<string>,
    now: number,
  ): BidState {
    const a = bid.auction;
    const key = `${bid.tokenId}:${bid.amountWei}`;
    // A bid of an earlier auction of the token: won if a sale at that price came to us, else refunded.
    if (!a || bid.blockNumber < a.createdBlock) return won.has(key) ? "won" : "refunded";
    if (a.status === "cancelled") return "refunded";
    const highestIsMine = !!a.highestBidder && mine.has(a.highestBidder);
    const isHighest = highestIsMine && a.highestBidWei === bid.amountWei;
    const over = a.status === "settled" || (a.endsAt !== null && Date.parse(a.endsAt) <= now);
    if (isHighest) return over ? "won" : "leading";
    // Our own higher bid replaced this one: its amount came back to us.
    if (highestIsMine) return "refunded";
    return over ? "lost" : "outbid";
  }

  async function nftRefs(nftIds: string[]) {
    const numbers = new Map<string, number>();
    for (const id of new Set(nftIds)) {
      const n = await deps.catalogue.catalogueNumberOf(id).catch(() => undefined);
      if (n !== undefined) numbers.set(id, n);
    }
    const nfts = await deps.catalogue.nftsByCatalogueNumber([...numbers.values()]);
    return (id: string) => {
      const n = numbers.get(id);
      return n === undefined ? undefined : nfts.get(n);
    };
  }

  return {
    likes,
    async like(userId: string, nftId: string): Promise<NftLikes> {
      await deps.catalogue.catalogueNumberOf(nftId); // 404 for an unknown NFT
      await repo.addLike(q, userId, nftId, clock.date());
      return likesOfOne(nftId, userId);
    },
    async unlike(userId: string, nftId: string): Promise<NftLikes> {
      await deps.catalogue.catalogueNumberOf(nftId);
      await repo.removeLike(q, userId, nftId);
      return likesOfOne(nftId, userId);
    },

    /** The name of the account an address is linked to, if any (link previews of tokens). */
    async holderName(address: string): Promise<string | undefined> {
      const userId = await deps.wallets.ownerOf(address);
      return userId ? (await deps.accounts.publicAccountsByIds([userId])).get(userId)?.name : undefined;
    },

    async profile(handle: string, viewerId: string | null): Promise<PublicProfile> {
      return profileOf(await accountOf(handle), viewerId);
    },

    async follow(userId: string, handle: string): Promise<PublicProfile> {
      const target = await accountOf(handle);
      if (target.id === userId) throw AppError.badRequest(socialMessages.followSelf);
      const added = await withTransaction(database, (tx) =>
        repo.addFollow((t, p) => tx.query(t, p), userId, target.id, clock.date()),
      );
      if (added) {
        const follower = (await deps.accounts.publicAccountsByIds([userId])).get(userId);
        if (follower) {
          await deps.notifications.notify(target.id, {
            kind: "new_follower",
            text: `${follower.name} started following you.`,
            link: `/u/${follower.handle}`,
            // Once per pair: following, unfollowing and following again does not notify twice.
            source: `follow:${userId}:${target.id}`,
          });
        }
      }
      return profileOf(target, userId);
    },

    async unfollow(userId: string, handle: string): Promise<PublicProfile> {
      const target = await accountOf(handle);
      await repo.removeFollow(q, userId, target.id);
      return profileOf(target, userId);
    },

    async followList(handle: string, side: "followers" | "following"): Promise<UserList> {
      const account = await accountOf(handle);
      const rows = await repo.followList(q, account.id, side, LIST_SIZE);
      const accounts = await deps.accounts.publicAccountsByIds(rows.map((r) => r.user_id));
      return {
        items: rows.flatMap((r) => {
          const a = accounts.get(r.user_id);
          return a ? [card(a)] : [];
        }),
      };
    },

    /**
     * The handle of the account whose linked wallet `address` holds `tokenId`, when its public showcase
     * shows the token (hidden from the showcase: null, the link between account and token stays private).
     */
    async holderHandle(address: string, tokenId: string): Promise<string | null> {
      if (deps.chainId === undefined) return null;
      const userId = await deps.wallets.ownerOf(address);
      if (!userId) return null;
      const account = (await deps.accounts.publicAccountsByIds([userId])).get(userId);
      if (!account) return null;
      const arranged = await repo.showcaseOf(q, userId, deps.chainId);
      return arranged.some((r) => r.token_id === tokenId && r.hidden) ? null : account.handle;
    },

    async showcase(handle: string): Promise<Showcase> {
      return showcaseOf((await accountOf(handle)).id, false);
    },
    myShowcase: (userId: string) => showcaseOf(userId, true),

    /** Replaces the arrangement of the user's own showcase; tokens they do not own are refused. */
    async arrangeShowcase(userId: string, update: ShowcaseUpdate): Promise<Showcase> {
      const items = (update.items ?? []).map((i) => ({
        tokenId: BigInt(i.tokenId).toString(),
        pinned: i.pinned ?? false,
        hidden: i.hidden ?? false,
      }));
      if (new Set(items.map((i) => i.tokenId)).size !== items.length) {
        throw AppError.badRequest("Each token can appear once");
      }
      const chainId = deps.chainId;
      if (items.length > 0) {
        const owned = new Set(
          chainId === undefined
            ? []
            : (await deps.tokens.tokensOfAccounts(await addressesOf(userId))).map((t) => t.tokenId),
        );
        if (chainId === undefined || items.some((i) => !owned.has(i.tokenId))) {
          throw AppError.badRequest(socialMessages.notYourToken);
        }
      }
      if (chainId !== undefined) {
        await withTransaction(database, (tx) =>
          repo.replaceShowcase((t, p) => tx.query(t, p), userId, chainId, items),
        );
      }
      return showcaseOf(userId, true);
    },

    async myBids(userId: string): Promise<MyBids> {
      const addresses = await addressesOf(userId);
      const [bids, activity] = await Promise.all([
        deps.tokens.bidsOf(addresses),
        deps.tokens.activityOfAccounts(addresses, 500),
      ]);
      const mine = new Set(addresses);
      const won = new Set(
        activity.filter((a) => a.kind === "purchase").map((a) => `${a.tokenId}:${a.amountWei}`),
      );
      const now = clock.date().getTime();
      return {
        items: bids.map(
          (b): MyBid => ({
            tokenId: b.tokenId,
            nft: b.nft,
            amountWei: b.amountWei,
            at: b.at,
            txHash: b.txHash,
            state: bidState(b, mine, won, now),
            endsAt:
              b.auction && b.auction.status === "open" && b.blockNumber >= b.auction.createdBlock
                ? b.auction.endsAt
                : null,
            highestBidWei: b.auction?.highestBidWei ?? null,
            link: `/nfttransfer/${b.tokenId}`,
          }),
        ),
      };
    },

    async activity(handle: string, tag?: ActivityTag): Promise<ActivityFeed> {
      const account = await accountOf(handle);
      const want = (t: ActivityTag) => !tag || tag === t;
      const entries: ActivityEntry[] = [];
      const symbol = deps.symbol;

      if (!tag || ["bids", "auctions", "sold"].includes(tag)) {
        const chain = await deps.tokens.activityOfAccounts(await addressesOf(account.id), FEED_SIZE);
        for (const a of chain) {
          const title = a.nft?.title ?? `Token #${a.tokenId}`;
          const price = amount(a.amountWei, symbol);
          const base = { at: a.at, imageUrl: a.nft?.imageUrl ?? null, amountWei: a.amountWei };
          if (a.kind === "bid" && want("bids"))
            entries.push({
              ...base,
              kind: "bid",
              text: `Bid ${price} on ${title}`,
              link: `/nfttransfer/${a.tokenId}`,
            });
          if (a.kind === "auction" && want("auctions"))
            entries.push({
              ...base,
              kind: "auction",
              text: `Put ${title} up for auction (reserve ${price})`,
              link: `/nfttransfer/${a.tokenId}`,
            });
          if (a.kind === "sold" && want("sold"))
            entries.push({
              ...base,
              kind: "sold",
              text: `Sold ${title} for ${price}`,
              link: `/nfttransfer/${a.tokenId}`,
            });
          if (a.kind === "purchase" && !tag)
            entries.push({
              ...base,
              kind: "purchase",
              text: `Bought ${title} for ${price}`,
              link: `/nftshowcase/${a.tokenId}`,
            });
        }
      }
      if (want("likes")) {
        const rows = await repo.likesByUser(q, account.id, FEED_SIZE);
        const nftOf = await nftRefs(rows.map((r) => r.nft_id));
        for (const r of rows) {
          const n = nftOf(r.nft_id);
          entries.push({
            kind: "like",
            at: new Date(r.created_at).toISOString(),
            text: `Liked ${n?.title ?? "an NFT"}`,
            link: `/nftdetail/${r.nft_id}`,
            imageUrl: n?.imageUrl ?? null,
            amountWei: null,
          });
        }
      }
      for (const side of ["followers", "following"] as const) {
        if (!want(side)) continue;
        const rows = await repo.followList(q, account.id, side, FEED_SIZE);
        const accounts = await deps.accounts.publicAccountsByIds(rows.map((r) => r.user_id));
        for (const r of rows) {
          const other = accounts.get(r.user_id);
          if (!other) continue;
          entries.push({
            kind: side === "followers" ? "follower" : "following",
            at: new Date(r.created_at).toISOString(),
            text: side === "followers" ? `${other.name} followed ${account.name}` : `Followed ${other.name}`,
            link: `/u/${other.handle}`,
            imageUrl: other.avatarUrl,
            amountWei: null,
          });
        }
      }
      entries.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
      return { items: entries.slice(0, FEED_SIZE) };
    },
  };
}

export type SocialService = ReturnType<typeof createSocialService>;

// Data rights (decision 170): this module's part of the archive and of the erasure.
export { eraseSocial, exportSocial } from "./personal-data.ts";
