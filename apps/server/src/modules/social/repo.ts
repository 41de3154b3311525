import type { Query } from "../../db/query.ts";
/** Raw SQL, on the database or inside a transaction (Tx.query has this shape). */
export type { Query } from "../../db/query.ts";

// ---------------------------------------------------------------- likes

export async function addLike(q: Query, userId: string, nftId: string, now: Date): Promise<void> {
  await q("INSERT INTO nft_likes (user_id, nft_id, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING", [
    userId,
    nftId,
    now,
  ]);
}

export async function removeLike(q: Query, userId: string, nftId: string): Promise<void> {
  await q("DELETE FROM nft_likes WHERE user_id = $1 AND nft_id = $2", [userId, nftId]);
}

/** Like counts of the NFTs, and which of them `userId` likes. */
export async function likesOf(
  q: Query,
  nftIds: string[],
  userId: string | null,
): Promise<Map<string, { count: number; liked: boolean }>> {
  const rows = await q<{ nft_id: string; n: number; mine: boolean }>(
    `SELECT nft_id, count(*)::int AS n, bool_or(user_id = $2::uuid) AS mine
       FROM nft_likes WHERE nft_id = ANY($1::text[]) GROUP BY nft_id`,
    [nftIds, userId],
  );
  return new Map(rows.map((r) => [r.nft_id, { count: Number(r.n), liked: r.mine === true }]));
}

export function likesByUser(q: Query, userId: string, limit: number) {
  return q<{ nft_id: string; created_at: Date }>(
    "SELECT nft_id, created_at FROM nft_likes WHERE user_id = $1 ORDER BY created_at DESC LIMIT $2",
    [userId, limit],
  );
}

// ---------------------------------------------------------------- follows

/** True when the follow is new. */
export async function addFollow(
  q: Query,
  followerId: string,
  followeeId: string,
  now: Date,
): Promise<boolean> {
  const rows = await q(
    `INSERT INTO follows (follower_id, followee_id, created_at) VALUES ($1, $2, $3)
     ON CONFLICT DO NOTHING RETURNING 1`,
    [followerId, followeeId, now],
  );
  return rows.length > 0;
}

export async function removeFollow(q: Query, followerId: string, followeeId: string): Promise<void> {
  await q("DELETE FROM follows WHERE follower_id = $1 AND followee_id = $2", [followerId, followeeId]);
}

export async function followCounts(
  q: Query,
  userId: string,
  viewerId: string | null,
): Promise<{ followers: number; following: number; followedByViewer: boolean }> {
  const [row] = await q<{ followers: number; following: number; mine: boolean }>(
    `SELECT (SELECT count(*)::int FROM follows WHERE followee_id = $1) AS followers,
            (SELECT count(*)::int FROM follows WHERE follower_id = $1) AS following,
            EXISTS (SELECT 1 FROM follows WHERE follower_id = $2::uuid AND followee_id = $1) AS mine`,
    [userId, viewerId],
  );
  return {
    followers: Number(row?.followers ?? 0),
    following: Number(row?.following ?? 0),
    followedByViewer: row?.mine === true,
  };
}

/** Followers of `userId` (side "followers") or whom they follow ("following"), newest first. */
export function followList(q: Query, userId: string, side: "followers" | "following", limit: number) {
  const [mine, other] =
    side === "followers" ? ["followee_id", "follower_id"] : ["follower_id", "followee_id"];
  return q<{ user_id: string; created_at: Date }>(
    `SELECT ${other}::text AS user_id, created_at FROM follows WHERE ${mine} = $1 ORDER BY created_at DESC LIMIT $2`,
    [userId, limit],
  );
}

// ---------------------------------------------------------------- showcase

export interface ShowcaseRow {
  token_id: string;
  pinned: boolean;
  hidden: boolean;
  position: number;
}

export function showcaseOf(q: Query, userId: string, chainId: number): Promise<ShowcaseRow[]> {
  return q<ShowcaseRow>(
    `SELECT token_id::text AS token_id, pinned, hidden, position FROM showcase_items
      WHERE user_id = $1 AND chain_id = $2 ORDER BY position`,
    [userId, chainId],
  );
}

/** Replaces the user's arrangement on `chainId` with `items` (in order). */
export async function replaceShowcase(
  q: Query,
  userId: string,
  chainId: number,
  items: { tokenId: string; pinned: boolean; hidden: boolean }[],
): Promise<void> {
  await q("DELETE FROM showcase_items WHERE user_id = $1 AND chain_id = $2", [userId, chainId]);
  if (items.length === 0) return;
  await q(
    `INSERT INTO showcase_items (user_id, chain_id, token_id, pinned, hidden, position)
     SELECT $1, $2, x.token_id::numeric, x.pinned, x.hidden, x.position
       FROM unnest($3::text[], $4::boolean[], $5::boolean[], $6::int[]) AS x(token_id, pinned, hidden, position)`,
    [
      userId,
      chainId,
      items.map((i) => i.tokenId),
      items.map((i) => i.pinned),
      items.map((i) => i.hidden),
      items.map((_, n) => n),
    ],
  );
}
