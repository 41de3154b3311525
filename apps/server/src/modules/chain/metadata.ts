import { diginoorCollectibleAbi } from "@diginoor/contracts/generated/diginoorCollectible";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../http/errors.ts";
import { defineRoute } from "../../http/route.ts";
import { rowsOf } from "../../lib/rate-limit.ts";

/** ERC-721 metadata JSON (OpenSea-style), the target of the collectible's `tokenURI`. */
export const tokenMetadataSchema = z.object({
  name: z.string(),
  description: z.string(),
  image: z.string(),
  animation_url: z.string().optional(),
  external_url: z.string(),
  attributes: z.array(
    z.object({
      trait_type: z.string(),
      value: z.union([z.string(), z.number()]),
      display_type: z.string().optional(),
    }),
  ),
});

interface NftRow {
  id: string;
  title: string;
  description: string;
  tier: string;
  category: string;
  image_url: string;
  video_url: string | null;
  edition_size: number;
  film: string;
  celebrity: string;
  production_house: string;
}

const tierLabel: Record<string, string> = {
  common: "Common",
  rare: "Rare",
  ultimate: "Ultimate",
  legendary: "Legendary",
};

export async function registerTokenMetadata(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const absolute = (u: string) => (/^https?:\/\//.test(u) ? u : `${ctx.config.PUBLIC_URL}${u}`);
  defineRoute(app, {
    method: "GET",
    url: "/api/v1/metadata/:tokenId",
    summary: "ERC-721 metadata of a minted token",
    tags: ["chain"],
    params: z.object({ tokenId: z.string().regex(/^\d{1,78}$/, "must be a token id (a whole number)") }),
    response: tokenMetadataSchema,
    errors: [404],
    handler: async ({ params, reply }) => {
      const chain = ctx.chain;
      if (!chain) throw AppError.notFound("Token");
      const tokenId = BigInt(params.tokenId);
      const { collectible } = chain.deployment;
      const exists = await chain.publicClient.readContract({
        address: collectible,
        abi: diginoorCollectibleAbi,
        functionName: "exists",
        args: [tokenId],
      });
      if (!exists) throw AppError.notFound("Token");
      const info = await chain.publicClient.readContract({
        address: collectible,
        abi: diginoorCollectibleAbi,
        functionName: "tokenInfo",
        args: [tokenId],
      });
      const rows = rowsOf<NftRow>(
        await ctx.db.execute(sql`
          SELECT n.id, n.title, n.description, n.tier, n.category, n.image_url, n.video_url, n.edition_size,
                 f.name AS film, c.name AS celebrity, p.name AS production_house
          FROM nfts n
          JOIN films f ON f.id = n.film_id
          JOIN celebrities c ON c.id = n.celebrity_id
          JOIN production_houses p ON p.id = n.production_house_id
          WHERE n.catalogue_number = ${info.catalogueNftId.toString()}`),
      );
      const nft = rows[0];
      if (!nft) throw AppError.notFound("Token");
      // Metadata of a minted token never changes; let marketplaces cache it.
      reply.header("cache-control", "public, max-age=300");
      return {
        name: info.edition > 0 ? `${nft.title} #${info.edition}` : nft.title,
        description: nft.description,
        image: absolute(nft.image_url),
        ...(nft.video_url ? { animation_url: absolute(nft.video_url) } : {}),
        external_url: `${ctx.config.PUBLIC_URL}/nftdetail/${nft.id}`,
        attributes: [
          { trait_type: "Rarity", value: tierLabel[nft.tier] ?? nft.tier },
          { trait_type: "Film", value: nft.film },
          { trait_type: "Celebrity", value: nft.celebrity },
          { trait_type: "Production house", value: nft.production_house },
          { trait_type: "Category", value: nft.category },
          { trait_type: "Edition", value: info.edition, display_type: "number" },
          { trait_type: "Edition size", value: nft.edition_size, display_type: "number" },
          { trait_type: "Royalty", value: info.royaltyBps / 100, display_type: "boost_percentage" },
        ],
      };
    },
  });
}
