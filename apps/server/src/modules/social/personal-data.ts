// The social module's part of the data rights (decision 170): likes, follows and showcase choices
// are the person's own and are exported, then deleted at erasure (both directions of follows).
import type { Query } from "../../db/query.ts";
import type { PersonalSubject } from "../../lib/personal-data.ts";

export async function exportSocial(q: Query, s: PersonalSubject) {
  const followers = await q<{ n: number }>("SELECT count(*)::int AS n FROM follows WHERE followee_id = $1", [
    s.userId,
  ]);
  return {
    likes: await q(
      `SELECT nft_id AS "nftId", created_at AS "createdAt" FROM nft_likes WHERE user_id = $1 ORDER BY created_at`,
      [s.userId],
    ),
    // Whom the person follows (account ids); of their followers only how many (those are others' acts).
    following: await q(
      `SELECT followee_id::text AS "userId", created_at AS "createdAt" FROM follows WHERE follower_id = $1 ORDER BY created_at`,
      [s.userId],
    ),
    followerCount: followers[0]?.n ?? 0,
    showcase: await q(
      `SELECT chain_id AS "chainId", token_id::text AS "tokenId", pinned, hidden, position
         FROM showcase_items WHERE user_id = $1 ORDER BY position`,
      [s.userId],
    ),
  };
}

export async function eraseSocial(q: Query, s: PersonalSubject) {
  await q("DELETE FROM nft_likes WHERE user_id = $1", [s.userId]);
  await q("DELETE FROM follows WHERE follower_id = $1 OR followee_id = $1", [s.userId]);
  await q("DELETE FROM showcase_items WHERE user_id = $1", [s.userId]);
}
