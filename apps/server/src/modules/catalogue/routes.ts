import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.ts";

/** Catalogue routes: NFTs, films, collections, contact, newsletter. */
export async function registerCatalogue(_app: FastifyInstance, _ctx: AppContext): Promise<void> {}
