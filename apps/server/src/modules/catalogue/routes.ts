import { catalogueEndpoints as api } from "@diginoor/api/catalogue";
import type { FastifyInstance } from "fastify";
import type { CatalogueService } from "./service.ts";
import { route } from "../../http/route.ts";

/** Catalogue routes: NFTs, films, collections, about. */
export async function registerCatalogue(app: FastifyInstance, service: CatalogueService): Promise<void> {
  route(app, api.listNfts, {
    permission: "public",
    handler: async ({ query, reply }) => {
      const page = await service.listNftsPage(query);
      // The page is its UTF-8 JSON (each card serialised once per row, decision 023): sent as it is.
      return reply.type("application/json; charset=utf-8").send(page.json);
    },
  });
  route(app, api.getNft, { permission: "public", handler: ({ params }) => service.getNft(params.id) });
  route(app, api.listFilms, { permission: "public", handler: () => service.listFilms() });
  route(app, api.getFilm, { permission: "public", handler: ({ params }) => service.getFilm(params.slug) });
  route(app, api.getCollections, { permission: "public", handler: () => service.getCollections() });
  route(app, api.getAbout, { permission: "public", handler: () => service.getAbout() });
}
