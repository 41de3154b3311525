import {
  aboutResponseSchema,
  collectionsResponseSchema,
  filmDetailSchema,
  filmListResponseSchema,
  listNftsQuerySchema,
  nftDetailSchema,
  nftListResponseSchema,
} from "@diginoor/api/catalogue";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { defineRoute } from "../../http/route.ts";
import { createCatalogueService } from "./service.ts";

const nftIdParams = z.object({ id: z.string().min(1).max(64) }).strict();
const filmSlugParams = z
  .object({
    slug: z
      .string()
      .min(1)
      .max(80)
      .transform((s) => s.toLowerCase()),
  })
  .strict();

/** Catalogue routes: NFTs, films, collections, about. */
export async function registerCatalogue(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const test = ctx.config.NODE_ENV === "test";
  const service = createCatalogueService(ctx.database, {
    cacheTtlMs: test ? 0 : 10_000,
    listCacheTtlMs: test ? 0 : ctx.config.CATALOGUE_LIST_CACHE_MS,
    clock: ctx.clock,
  });
  const tags = ["catalogue"];

  defineRoute(app, {
    method: "GET",
    url: "/api/v1/nfts",
    summary: "List NFTs with filters, text search, sorting and cursor pagination",
    tags,
    query: listNftsQuerySchema,
    response: nftListResponseSchema,
    handler: async ({ query, reply }) => {
      const page = await service.listNftsPage(query);
      // The cached page carries its JSON text: send it instead of serialising the body again.
      reply.type("application/json; charset=utf-8").serializer(() => page.json);
      return page.body;
    },
  });

  defineRoute(app, {
    method: "GET",
    url: "/api/v1/nfts/:id",
    summary: "One NFT with its properties and related NFTs",
    tags,
    params: nftIdParams,
    response: nftDetailSchema,
    errors: [404],
    handler: ({ params }) => service.getNft(params.id),
  });

  defineRoute(app, {
    method: "GET",
    url: "/api/v1/films",
    summary: "Films and featured collections with their NFT counts",
    tags,
    response: filmListResponseSchema,
    handler: () => service.listFilms(),
  });

  defineRoute(app, {
    method: "GET",
    url: "/api/v1/films/:slug",
    summary: "A film with its cast, studio and NFTs (the newest 60; page the rest with /api/v1/nfts?film=)",
    tags,
    params: filmSlugParams,
    response: filmDetailSchema,
    errors: [404],
    handler: ({ params }) => service.getFilm(params.slug),
  });

  defineRoute(app, {
    method: "GET",
    url: "/api/v1/collections",
    summary: "Featured and hot collections, top sellers and filter values",
    tags,
    response: collectionsResponseSchema,
    handler: () => service.getCollections(),
  });

  defineRoute(app, {
    method: "GET",
    url: "/api/v1/about",
    summary: "Official partners and team",
    tags,
    response: aboutResponseSchema,
    handler: () => service.getAbout(),
  });
}
