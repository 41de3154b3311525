import { z } from "zod";
import { endpoint } from "./endpoint.ts";
import { paragraphText, requiredLine } from "./text.ts";

/** Rarity tiers, lowest to highest. */
export const tiers = ["common", "rare", "ultimate", "legendary"] as const;
export const tierSchema = z.enum(tiers);
export type Tier = z.infer<typeof tierSchema>;
export const tierLabels: Record<Tier, string> = {
  common: "Common",
  rare: "Rare",
  ultimate: "Ultimate",
  legendary: "Legendary",
};

export const saleTypeSchema = z.enum(["fixed", "auction"]);
export type SaleType = z.infer<typeof saleTypeSchema>;

export const nftSortSchema = z.enum(["newest", "price_asc", "price_desc", "title"]);
export type NftSort = z.infer<typeof nftSortSchema>;

const slug = z
  .string()
  .trim()
  .min(1)
  .max(80)
  .regex(/^[a-z0-9-]+$/i, "must be a slug (letters, digits and dashes)")
  .transform((s) => s.toLowerCase());

/** Integer query parameter: digits only, so "1e3", "-1", "1.5" and "abc" are rejected with a clear message. */
const intParam = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,15}$/, "must be a whole number")
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

/** Query string of GET /api/v1/nfts. */
export const listNftsQuerySchema = z
  .object({
    tier: tierSchema.optional(),
    film: slug.optional(),
    celebrity: slug.optional(),
    saleType: saleTypeSchema.optional(),
    minPriceCents: intParam(0, 1_000_000_000_00).optional(),
    maxPriceCents: intParam(0, 1_000_000_000_00).optional(),
    q: z.string().trim().max(100, "at most 100 characters").optional(),
    sort: nftSortSchema.default("newest"),
    limit: intParam(1, 100).default(24),
    cursor: z.string().max(1200, "is not a valid cursor").optional(),
  })
  .strict()
  .refine(
    (v) =>
      v.minPriceCents === undefined || v.maxPriceCents === undefined || v.minPriceCents <= v.maxPriceCents,
    {
      message: "minPriceCents must not exceed maxPriceCents",
      path: ["minPriceCents"],
    },
  );
export type ListNftsQuery = z.input<typeof listNftsQuerySchema>;
export type ListNftsParsed = z.output<typeof listNftsQuerySchema>;

export const namedRefSchema = z.object({ slug: z.string(), name: z.string() });

/** An NFT as shown on a card in any grid. Money is integer USD cents. */
export const nftSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  tier: tierSchema,
  film: namedRefSchema,
  celebrity: namedRefSchema,
  priceUsdCents: z.number().int().nonnegative(),
  saleType: saleTypeSchema,
  /** For auctions: when bidding ends (ISO 8601), or null when no auction clock runs yet. */
  auctionEndsAt: z.string().nullable(),
  thumbnailUrl: z.string(),
  editionsAvailable: z.number().int().nonnegative(),
  editionSize: z.number().int().positive(),
  createdAt: z.string(),
});
export type NftSummary = z.infer<typeof nftSummarySchema>;

export const nftListResponseSchema = z.object({
  items: z.array(nftSummarySchema),
  nextCursor: z.string().nullable(),
});
export type NftListResponse = z.infer<typeof nftListResponseSchema>;

export const nftPropertySchema = z.object({ label: z.string(), value: z.string() });

/** GET /api/v1/nfts/:id */
export const nftDetailSchema = nftSummarySchema.extend({
  description: z.string(),
  about: z.string(),
  category: z.string(),
  productionHouse: namedRefSchema,
  collection: namedRefSchema.nullable(),
  imageUrl: z.string(),
  videoUrl: z.string().nullable(),
  exclusiveRewards: z.string(),
  royaltyBps: z.number().int(),
  blockchain: z.string(),
  properties: z.array(nftPropertySchema),
  related: z.array(nftSummarySchema),
});
export type NftDetail = z.infer<typeof nftDetailSchema>;

export const filmSummarySchema = z.object({
  slug: z.string(),
  name: z.string(),
  tagline: z.string(),
  description: z.string(),
  posterUrl: z.string(),
  bannerUrl: z.string(),
  thumbnailUrl: z.string(),
  releaseYear: z.number().int().nullable(),
  nftCount: z.number().int(),
  /** Extra note shown on the film page, e.g. the sapling for holders of the late-actor collection. */
  note: z.string().nullable(),
});
export type FilmSummary = z.infer<typeof filmSummarySchema>;

export const filmListResponseSchema = z.object({ items: z.array(filmSummarySchema) });

/** GET /api/v1/films/:slug */
export const filmDetailSchema = filmSummarySchema.extend({
  celebrities: z.array(namedRefSchema),
  productionHouse: namedRefSchema.nullable(),
  nfts: z.array(nftSummarySchema),
});
export type FilmDetail = z.infer<typeof filmDetailSchema>;

export const collectionCardSchema = z.object({
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  bannerUrl: z.string(),
  thumbnailUrl: z.string(),
  /** The route of the film page, e.g. "/kabali"; null for "Coming soon". */
  href: z.string().nullable(),
  nftCount: z.number().int(),
  comingSoon: z.boolean(),
});
export type CollectionCard = z.infer<typeof collectionCardSchema>;

/** GET /api/v1/collections: what the collections page needs. */
export const collectionsResponseSchema = z.object({
  featured: z.array(collectionCardSchema),
  hot: z.array(collectionCardSchema),
  topSellers: z.array(nftSummarySchema),
  /** Price bounds and filter values derived from the data, for filter dropdowns. */
  filters: z.object({
    films: z.array(namedRefSchema),
    celebrities: z.array(namedRefSchema),
    minPriceUsdCents: z.number().int(),
    maxPriceUsdCents: z.number().int(),
  }),
});
export type CollectionsResponse = z.infer<typeof collectionsResponseSchema>;

export const teamMemberSchema = z.object({ name: z.string(), role: z.string(), avatarUrl: z.string() });
export const partnerSchema = z.object({ slug: z.string(), name: z.string(), logoUrl: z.string() });
/** GET /api/v1/about: partners and team for the about page. */
export const aboutResponseSchema = z.object({
  partners: z.array(partnerSchema),
  team: z.array(teamMemberSchema),
});
export type AboutResponse = z.infer<typeof aboutResponseSchema>;

const email = z
  .string()
  .trim()
  .max(254, "at most 254 characters")
  .pipe(z.email("must be a valid email address"))
  .transform((e) => e.toLowerCase())
  .meta({ format: "email" });

export const contactRequestSchema = z
  .object({
    name: requiredLine(100),
    email,
    message: paragraphText(5000).min(1, "is required"),
  })
  .strict();
export type ContactRequest = z.input<typeof contactRequestSchema>;

export const newsletterRequestSchema = z.object({ email }).strict();
export type NewsletterRequest = z.input<typeof newsletterRequestSchema>;

export const createdResponseSchema = z.object({ ok: z.literal(true) });

/** Path parameters of GET /api/v1/nfts/{id}. */
export const nftIdParamsSchema = z.object({ id: z.string().min(1).max(64) }).strict();
/** Path parameters of GET /api/v1/films/{slug} (matched case-insensitively). */
export const filmSlugParamsSchema = z
  .object({
    slug: z
      .string()
      .min(1)
      .max(80)
      .transform((s) => s.toLowerCase()),
  })
  .strict();

const catalogueTags = ["catalogue"] as const;

/** The catalogue's endpoints (and the two public forms). */
export const catalogueEndpoints = {
  listNfts: endpoint({
    operationId: "listNfts",
    method: "GET",
    path: "/api/v1/nfts",
    summary: "List NFTs with filters, text search, sorting and cursor pagination",
    tags: catalogueTags,
    query: listNftsQuerySchema,
    success: { status: 200, schema: nftListResponseSchema },
  }),
  getNft: endpoint({
    operationId: "getNft",
    method: "GET",
    path: "/api/v1/nfts/{id}",
    summary: "One NFT with its properties and related NFTs",
    tags: catalogueTags,
    params: nftIdParamsSchema,
    success: { status: 200, schema: nftDetailSchema },
    errors: ["not_found"],
  }),
  listFilms: endpoint({
    operationId: "listFilms",
    method: "GET",
    path: "/api/v1/films",
    summary: "Films and featured collections with their NFT counts",
    tags: catalogueTags,
    success: { status: 200, schema: filmListResponseSchema },
  }),
  getFilm: endpoint({
    operationId: "getFilm",
    method: "GET",
    path: "/api/v1/films/{slug}",
    summary: "A film with its cast, studio and NFTs (the newest 60; page the rest with /api/v1/nfts?film=)",
    tags: catalogueTags,
    params: filmSlugParamsSchema,
    success: { status: 200, schema: filmDetailSchema },
    errors: ["not_found"],
  }),
  getCollections: endpoint({
    operationId: "getCollections",
    method: "GET",
    path: "/api/v1/collections",
    summary: "Featured and hot collections, top sellers and filter values",
    tags: catalogueTags,
    success: { status: 200, schema: collectionsResponseSchema },
  }),
  getAbout: endpoint({
    operationId: "getAbout",
    method: "GET",
    path: "/api/v1/about",
    summary: "Official partners and team",
    tags: catalogueTags,
    success: { status: 200, schema: aboutResponseSchema },
  }),
  sendContactMessage: endpoint({
    operationId: "sendContactMessage",
    method: "POST",
    path: "/api/v1/contact",
    summary: "Send a message to the team",
    tags: catalogueTags,
    body: contactRequestSchema,
    success: { status: 201, schema: createdResponseSchema },
  }),
  subscribeNewsletter: endpoint({
    operationId: "subscribeNewsletter",
    method: "POST",
    path: "/api/v1/newsletter",
    summary: "Subscribe an email address to the newsletter (subscribing twice is fine)",
    tags: catalogueTags,
    body: newsletterRequestSchema,
    success: { status: 201, schema: createdResponseSchema },
  }),
};
