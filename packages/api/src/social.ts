import { z } from "zod";
import { nftIdParamsSchema } from "./catalogue.ts";
import { marketTokenSchema, tokenIdSchema } from "./chain.ts";
import { endpoint } from "./endpoint.ts";

/**
 * Likes, follows, public profiles, showcase curation, bids and activity (issue 12, decision 151).
 * Users are addressed by their public handle (/u/{handle}); times are ISO 8601, amounts wei strings.
 */

export const socialMessages = {
  followSelf: "You cannot follow yourself",
  notYourToken: "You can only arrange tokens you own",
} as const;

/** A handle in a path (any case; handles are lower case). */
export const handleParamsSchema = z
  .object({
    handle: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9-]{0,40}$/, "must be a user handle")
      .transform((s) => s.toLowerCase()),
  })
  .strict();

/** PUT/DELETE /api/v1/nfts/{id}/like and GET /api/v1/likes: an NFT's like count and my like. */
export const nftLikesSchema = z.object({
  nftId: z.string(),
  count: z.number().int(),
  /** Whether the signed-in user likes it (false when signed out). */
  liked: z.boolean(),
});
export type NftLikes = z.infer<typeof nftLikesSchema>;

export const likesQuerySchema = z
  .object({
    /** Comma-separated NFT ids (at most 100). */
    nfts: z
      .string()
      .max(4000)
      .transform((s) => [...new Set(s.split(",").filter(Boolean))])
      .refine((ids) => ids.length >= 1 && ids.length <= 100, "must list 1 to 100 NFT ids")
      .refine((ids) => ids.every((id) => /^[A-Za-z0-9_-]{6,32}$/.test(id)), "must list NFT ids"),
  })
  .strict();

export const likesListSchema = z.object({ items: z.array(nftLikesSchema) });
export type LikesList = z.infer<typeof likesListSchema>;

/** A user as lists and cards show them. */
export const userCardSchema = z.object({
  handle: z.string(),
  name: z.string(),
  avatarUrl: z.string().nullable(),
});
export type UserCard = z.infer<typeof userCardSchema>;

/** GET /api/v1/users/{handle}: what anyone sees of a user. */
export const publicProfileSchema = userCardSchema.extend({
  coverUrl: z.string().nullable(),
  /** The wallet that receives the user's purchases (checksummed), if any. */
  wallet: z.string().nullable(),
  followers: z.number().int(),
  following: z.number().int(),
  /** Whether the signed-in user follows them (false when signed out). */
  followedByMe: z.boolean(),
  /** Whether this is the signed-in user's own profile. */
  isMe: z.boolean(),
  memberSince: z.string(),
});
export type PublicProfile = z.infer<typeof publicProfileSchema>;

export const userListSchema = z.object({ items: z.array(userCardSchema) });
export type UserList = z.infer<typeof userListSchema>;

/** A token of a showcase: the token card plus how its owner arranged it. */
export const showcaseTokenSchema = marketTokenSchema.extend({
  pinned: z.boolean(),
  /** Only ever true in the owner's own view (GET /api/v1/me/showcase). */
  hiddenFromShowcase: z.boolean(),
});
export type ShowcaseToken = z.infer<typeof showcaseTokenSchema>;

export const showcaseSchema = z.object({
  /** Pinned first, then the owner's order, then the rest by token id. */
  items: z.array(showcaseTokenSchema),
});
export type Showcase = z.infer<typeof showcaseSchema>;

/** PUT /api/v1/me/showcase: the arrangement, in order (tokens left out keep no arrangement). */
export const showcaseUpdateSchema = z
  .object({
    items: z
      .array(
        z
          .object({
            tokenId: tokenIdSchema,
            pinned: z.boolean().default(false),
            hidden: z.boolean().default(false),
          })
          .strict(),
      )
      .max(500),
  })
  .strict();
export type ShowcaseUpdate = z.input<typeof showcaseUpdateSchema>;

export const bidStateSchema = z.enum(["leading", "outbid", "won", "lost", "refunded"]);
export type BidState = z.infer<typeof bidStateSchema>;

const nftRefSchema = z.object({ id: z.string(), title: z.string(), imageUrl: z.string() }).nullable();

/** One bid of the signed-in user (GET /api/v1/me/bids). */
export const myBidSchema = z.object({
  tokenId: z.string(),
  nft: nftRefSchema,
  amountWei: z.string(),
  at: z.string(),
  txHash: z.string(),
  state: bidStateSchema,
  /** When the auction closes (open auctions with a first bid), for the live countdown. */
  endsAt: z.string().nullable(),
  /** The auction's highest bid now. */
  highestBidWei: z.string().nullable(),
  /** Where to bid again (or see the result). */
  link: z.string(),
});
export type MyBid = z.infer<typeof myBidSchema>;
export const myBidsSchema = z.object({ items: z.array(myBidSchema) });
export type MyBids = z.infer<typeof myBidsSchema>;

/** The Activity tab's tags (spec: likes, bids, auctions, sold, followers, following). */
export const activityTagSchema = z.enum(["likes", "bids", "auctions", "sold", "followers", "following"]);
export type ActivityTag = z.infer<typeof activityTagSchema>;

export const activityEntrySchema = z.object({
  kind: z.enum(["like", "bid", "auction", "sold", "purchase", "follower", "following"]),
  at: z.string(),
  text: z.string(),
  link: z.string(),
  imageUrl: z.string().nullable(),
  amountWei: z.string().nullable(),
});
export type ActivityEntry = z.infer<typeof activityEntrySchema>;
export const activityFeedSchema = z.object({ items: z.array(activityEntrySchema) });
export type ActivityFeed = z.infer<typeof activityFeedSchema>;
export const activityQuerySchema = z.object({ tag: activityTagSchema.optional() }).strict();

const tags = ["social"] as const;

export const socialEndpoints = {
  likeNft: endpoint({
    operationId: "likeNft",
    method: "PUT",
    path: "/api/v1/nfts/{id}/like",
    summary: "Like an NFT (idempotent: liking twice stores one like)",
    tags,
    params: nftIdParamsSchema,
    success: { status: 200, schema: nftLikesSchema },
    errors: ["not_found"],
  }),
  unlikeNft: endpoint({
    operationId: "unlikeNft",
    method: "DELETE",
    path: "/api/v1/nfts/{id}/like",
    summary: "Take back a like (idempotent)",
    tags,
    params: nftIdParamsSchema,
    success: { status: 200, schema: nftLikesSchema },
    errors: ["not_found"],
  }),
  listLikes: endpoint({
    operationId: "listNftLikes",
    method: "GET",
    path: "/api/v1/likes",
    summary: "Like counts of up to 100 NFTs, and whether the signed-in user likes each",
    tags,
    query: likesQuerySchema,
    success: { status: 200, schema: likesListSchema },
  }),
  getProfile: endpoint({
    operationId: "getPublicProfile",
    method: "GET",
    path: "/api/v1/users/{handle}",
    summary: "A user's public profile",
    tags,
    params: handleParamsSchema,
    success: { status: 200, schema: publicProfileSchema },
    errors: ["not_found"],
  }),
  follow: endpoint({
    operationId: "followUser",
    method: "PUT",
    path: "/api/v1/users/{handle}/follow",
    summary: "Follow a user (idempotent; following yourself is refused)",
    tags,
    params: handleParamsSchema,
    success: { status: 200, schema: publicProfileSchema },
    errors: ["not_found", "bad_request"],
  }),
  unfollow: endpoint({
    operationId: "unfollowUser",
    method: "DELETE",
    path: "/api/v1/users/{handle}/follow",
    summary: "Stop following a user (idempotent)",
    tags,
    params: handleParamsSchema,
    success: { status: 200, schema: publicProfileSchema },
    errors: ["not_found"],
  }),
  followers: endpoint({
    operationId: "listFollowers",
    method: "GET",
    path: "/api/v1/users/{handle}/followers",
    summary: "Who follows a user, newest first",
    tags,
    params: handleParamsSchema,
    success: { status: 200, schema: userListSchema },
    errors: ["not_found"],
  }),
  following: endpoint({
    operationId: "listFollowing",
    method: "GET",
    path: "/api/v1/users/{handle}/following",
    summary: "Whom a user follows, newest first",
    tags,
    params: handleParamsSchema,
    success: { status: 200, schema: userListSchema },
    errors: ["not_found"],
  }),
  showcase: endpoint({
    operationId: "getShowcase",
    method: "GET",
    path: "/api/v1/users/{handle}/showcase",
    summary: "A user's showcase: owned tokens they have not hidden, pinned first, in their order",
    tags,
    params: handleParamsSchema,
    success: { status: 200, schema: showcaseSchema },
    errors: ["not_found"],
  }),
  activity: endpoint({
    operationId: "getActivity",
    method: "GET",
    path: "/api/v1/users/{handle}/activity",
    summary: "A user's likes, bids, auctions, sales, purchases and follows, newest first",
    tags,
    params: handleParamsSchema,
    query: activityQuerySchema,
    success: { status: 200, schema: activityFeedSchema },
    errors: ["not_found"],
  }),
  myShowcase: endpoint({
    operationId: "getMyShowcase",
    method: "GET",
    path: "/api/v1/me/showcase",
    summary: "The signed-in user's showcase with hidden tokens, for arranging it",
    tags,
    success: { status: 200, schema: showcaseSchema },
  }),
  arrangeShowcase: endpoint({
    operationId: "arrangeMyShowcase",
    method: "PUT",
    path: "/api/v1/me/showcase",
    summary: "Pin, hide and order the signed-in user's own tokens",
    tags,
    body: showcaseUpdateSchema,
    success: { status: 200, schema: showcaseSchema },
  }),
  myBids: endpoint({
    operationId: "listMyBids",
    method: "GET",
    path: "/api/v1/me/bids",
    summary: "Every bid of the signed-in user with its state (leading, outbid, won, lost, refunded)",
    tags,
    success: { status: 200, schema: myBidsSchema },
  }),
};
