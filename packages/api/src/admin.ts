// The studio console's API (issue 13 point 3, decision 132): everything under /api/v1/admin.
// Administrators reach all of it; a studio account (role "studio") reaches its own production
// house's films and NFTs, the image upload and the lists it needs to fill its forms (403 otherwise).
import { z } from "zod";
import { createPostSchema, postSlugSchema } from "./blog.ts";
import { saleTypeSchema, tierSchema } from "./catalogue.ts";
import { tokenIdSchema } from "./chain.ts";
import { endpoint } from "./endpoint.ts";
import { imageUrlSchema as imageUrl, lineText, paragraphText, requiredLine } from "./text.ts";

const tags = ["admin"] as const;

export const staffRoleSchema = z.enum(["user", "admin", "studio"]);
export type StaffRole = z.infer<typeof staffRoleSchema>;

const slugSchema = z
  .string()
  .trim()
  .min(1, "is required")
  .max(80, "at most 80 characters")
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be lower-case letters and digits joined by single dashes");
type PatchShape<S extends z.ZodRawShape> = {
  [K in keyof S]: z.ZodOptional<S[K] extends z.ZodDefault<infer I extends z.ZodType> ? I : S[K]>;
};
/**
 * The body of a PATCH: every field optional and without its default (zod would otherwise fill an
 * absent field with its default and the patch would reset it).
 */
export function patchOf<S extends z.ZodRawShape>(o: z.ZodObject<S>): z.ZodObject<PatchShape<S>> {
  const shape = Object.fromEntries(
    Object.entries(o.shape).map(([k, v]) => [
      k,
      ((v instanceof z.ZodDefault ? v.unwrap() : v) as z.ZodType).optional(),
    ]),
  );
  // An empty patch changes nothing: a 400 naming the mistake (there is no update to make).
  return z
    .object(shape)
    .strict()
    .refine((v) => Object.values(v).some((x) => x !== undefined), {
      message: "give at least one field to change",
    }) as unknown as z.ZodObject<PatchShape<S>>;
}

const idParam = z
  .object({
    id: z
      .string()
      .regex(/^\d{1,9}$/, "must be a number")
      .transform(Number),
  })
  .strict();

// ---- who is using the console

export const consoleMeSchema = z.object({
  role: z.enum(["admin", "studio"]),
  /** A studio account's production house (null for administrators). */
  productionHouse: z.object({ id: z.number().int(), name: z.string() }).nullable(),
});
export type ConsoleMe = z.infer<typeof consoleMeSchema>;

// ---- studios (production houses)

export const studioSchema = z.object({
  id: z.number().int(),
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  logoUrl: z.string(),
  isPartner: z.boolean(),
});
export type Studio = z.infer<typeof studioSchema>;
export const studioInputSchema = z
  .object({
    slug: slugSchema,
    name: requiredLine(120),
    description: paragraphText(2000).default(""),
    logoUrl: imageUrl,
    isPartner: z.boolean().default(false),
  })
  .strict();
export type StudioInput = z.input<typeof studioInputSchema>;

// ---- celebrities

export const celebritySchema = z.object({
  id: z.number().int(),
  slug: z.string(),
  name: z.string(),
  bio: z.string(),
});
export type Celebrity = z.infer<typeof celebritySchema>;
export const celebrityInputSchema = z
  .object({ slug: slugSchema, name: requiredLine(120), bio: paragraphText(5000).default("") })
  .strict();
export type CelebrityInput = z.input<typeof celebrityInputSchema>;

// ---- films

export const adminFilmSchema = z.object({
  id: z.number().int(),
  slug: z.string(),
  name: z.string(),
  tagline: z.string(),
  description: z.string(),
  releaseYear: z.number().int().nullable(),
  productionHouseId: z.number().int().nullable(),
  posterUrl: z.string(),
  bannerUrl: z.string(),
  thumbnailUrl: z.string(),
  note: z.string().nullable(),
  /** Where the film's public page is. */
  href: z.string(),
});
export type AdminFilm = z.infer<typeof adminFilmSchema>;
export const filmInputSchema = z
  .object({
    slug: slugSchema,
    name: requiredLine(200),
    tagline: lineText(300).default(""),
    description: paragraphText(5000).default(""),
    releaseYear: z.number().int().min(1900).max(2100).nullable().default(null),
    /** Ignored for studio accounts (their own house is used). */
    productionHouseId: z.number().int().positive().nullable().default(null),
    posterUrl: imageUrl,
    bannerUrl: imageUrl,
    thumbnailUrl: imageUrl,
    note: paragraphText(1000).nullable().default(null),
  })
  .strict();
export type FilmInput = z.input<typeof filmInputSchema>;
export const filmPatchSchema = patchOf(filmInputSchema);

// ---- NFTs

export const adminNftSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  about: z.string(),
  tier: tierSchema,
  category: z.string(),
  filmId: z.number().int(),
  celebrityId: z.number().int(),
  productionHouseId: z.number().int(),
  imageUrl: z.string(),
  thumbnailUrl: z.string(),
  editionSize: z.number().int(),
  editionsAvailable: z.number().int(),
  saleType: saleTypeSchema,
  priceUsdCents: z.number().int(),
  auctionDurationDays: z.number().int().nullable(),
  royaltyBps: z.number().int(),
  exclusiveRewards: z.string(),
  createdAt: z.string(),
});
export type AdminNft = z.infer<typeof adminNftSchema>;
const nftFields = z.object({
  title: requiredLine(200),
  description: paragraphText(5000).default(""),
  about: paragraphText(5000).default(""),
  tier: tierSchema,
  category: requiredLine(80),
  filmId: z.number().int().positive(),
  celebrityId: z.number().int().positive(),
  imageUrl: imageUrl,
  thumbnailUrl: imageUrl,
  editionSize: z.number().int().min(1).max(1_000_000),
  saleType: saleTypeSchema,
  /** USD cents: the price, or the reserve of an auction. */
  priceUsdCents: z.number().int().min(0).max(100_000_000_00),
  /** Auctions only: how long bidding runs once it opens (1–60 days). */
  auctionDurationDays: z.number().int().min(1).max(60).nullable().default(null),
  royaltyBps: z.number().int().min(0).max(10_000).default(1000),
  exclusiveRewards: paragraphText(2000).default(""),
});
const auctionRule = (v: { saleType?: string; auctionDurationDays?: number | null }) =>
  v.saleType === undefined || (v.saleType === "auction") === (v.auctionDurationDays != null);
const auctionIssue = {
  message: "is required for auctions and must be empty for fixed-price sales",
  path: ["auctionDurationDays"],
};
export const nftInputSchema = nftFields.strict().refine(auctionRule, auctionIssue);
export type NftInput = z.input<typeof nftInputSchema>;
export const nftPatchSchema = patchOf(nftFields);
export type NftPatch = z.input<typeof nftPatchSchema>;

// ---- posts

export const adminPostSchema = z.object({
  id: z.number().int(),
  slug: z.string(),
  title: z.string(),
  excerpt: z.string(),
  markdown: z.string(),
  author: z.string(),
  coverImageUrl: z.string().nullable(),
  featured: z.boolean(),
  publishedAt: z.string(),
});
export type AdminPost = z.infer<typeof adminPostSchema>;
/** `author` defaults to the signed-in administrator's name. */
export const adminPostInputSchema = createPostSchema.extend({
  author: createPostSchema.shape.author.optional(),
});
export type AdminPostInput = z.input<typeof adminPostInputSchema>;
export const adminPostPatchSchema = patchOf(createPostSchema.omit({ slug: true }));
export const postSlugParamsSchema = z.object({ slug: postSlugSchema }).strict();

// ---- users

export const adminUserSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: staffRoleSchema,
  productionHouseId: z.number().int().nullable(),
  emailVerified: z.boolean(),
  suspended: z.boolean(),
  createdAt: z.string(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;
export const userListQuerySchema = z
  .object({ q: z.string().trim().max(100).optional(), cursor: z.string().max(200).optional() })
  .strict();
export const userIdParamsSchema = z.object({ id: z.uuid("is not a user id") }).strict();
export const userRoleInputSchema = z
  .object({ role: staffRoleSchema, productionHouseId: z.number().int().positive().nullable().default(null) })
  .strict()
  .refine((v) => (v.role === "studio") === (v.productionHouseId !== null), {
    message: "is required for the studio role and only for it",
    path: ["productionHouseId"],
  });

// ---- contact messages, audit log, hidden tokens

export const contactMessageSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  message: z.string(),
  createdAt: z.string(),
});
export type ContactMessage = z.infer<typeof contactMessageSchema>;
export const auditEntrySchema = z.object({
  id: z.number().int(),
  actorId: z.string().nullable(),
  actorEmail: z.string(),
  actorRole: z.string(),
  action: z.string(),
  subjectType: z.string(),
  subjectId: z.string(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
/** Keyset pages by id, newest first: `before` is the last id of the previous page. */
export const pageQuerySchema = z
  .object({
    before: z
      .string()
      .regex(/^\d{1,18}$/, "must be a whole number")
      .transform(Number)
      .optional(),
    limit: z
      .string()
      .regex(/^\d{1,3}$/, "must be a whole number")
      .transform(Number)
      .pipe(z.number().int().min(1).max(200))
      .default(50),
  })
  .strict();

export const hiddenTokenSchema = z.object({
  tokenId: z.string(),
  reason: z.enum(["suspended", "voided"]),
  note: z.string(),
  createdAt: z.string(),
});
export type HiddenToken = z.infer<typeof hiddenTokenSchema>;
export const tokenIdParamsSchema = z.object({ tokenId: tokenIdSchema }).strict();
export const hideTokenInputSchema = z
  .object({ reason: z.enum(["suspended", "voided"]), note: paragraphText(500).default("") })
  .strict();

// ---- exit to IPFS (issue 25 point 1, decision 173)

/**
 * The root CID of a snapshot written by `npm run export:ipfs`: a CIDv1 in base32 (`bafy…`, as
 * `ipfs add --cid-version 1` prints it) or a CIDv0 (`Qm…`). The server parses it fully.
 */
export const ipfsRootCidSchema = z
  .string()
  .trim()
  .regex(/^(Qm[1-9A-HJ-NP-Za-km-z]{44}|b[a-z2-7]{50,120})$/, "Enter the root CID the export printed (bafy…)");
export const ipfsExitInputSchema = z.object({ rootCid: ipfsRootCidSchema }).strict();
export const ipfsExitResultSchema = z.object({
  /** The root as a base32 CIDv1 (the one the base URI names). */
  rootCid: z.string(),
  /** What the collectible's base URI now is: `ipfs://<root>/metadata/`. */
  baseUri: z.string(),
  txHash: z.string(),
  /** The collectible emitted ERC-4906 BatchMetadataUpdate(0, 2^256-1) in that transaction. */
  batchMetadataUpdate: z.boolean(),
});
export type IpfsExitResult = z.infer<typeof ipfsExitResultSchema>;
/** Where the collectible's tokenURI points now (the console's chain section shows it). */
export const chainMetadataSchema = z.object({
  collectible: z.string(),
  baseUri: z.string(),
  /** Whether the base URI is an IPFS snapshot rather than our server. */
  onIpfs: z.boolean(),
});
export type ChainMetadata = z.infer<typeof chainMetadataSchema>;

// ---- image upload

export const uploadPurposeSchema = z.enum(["nft", "film", "studio", "post"]);
export type UploadPurpose = z.infer<typeof uploadPurposeSchema>;
export const uploadResponseSchema = z.object({
  /** The renditions of the image by name (nft: image, thumbnail; film: poster, banner, thumbnail; …). */
  images: z.record(z.string(), z.string()),
});
export type UploadResponse = z.infer<typeof uploadResponseSchema>;

const list = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item) });
const page = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable() });

const crud = <
  Name extends string,
  Item extends z.ZodType,
  Input extends z.ZodType,
  Patch extends z.ZodType,
  Params extends z.ZodType,
>(
  name: Name,
  path: string,
  o: { item: Item; input: Input; patch: Patch; params: Params; id: string },
) => ({
  list: endpoint({
    operationId: `adminList${name}s`,
    method: "GET",
    path: `/api/v1/admin/${path}`,
    summary: `Console: every ${name.toLowerCase()} (a studio account sees its own house's)`,
    tags,
    success: { status: 200, schema: list(o.item) },
  }),
  create: endpoint({
    operationId: `adminCreate${name}`,
    method: "POST",
    path: `/api/v1/admin/${path}`,
    summary: `Console: create a ${name.toLowerCase()} (audited; public caches invalidated)`,
    tags,
    body: o.input,
    success: { status: 201, schema: o.item },
    errors: ["conflict", "not_found"],
  }),
  update: endpoint({
    operationId: `adminUpdate${name}`,
    method: "PATCH",
    path: `/api/v1/admin/${path}/{${o.id}}`,
    summary: `Console: change a ${name.toLowerCase()} (audited; public caches invalidated)`,
    tags,
    params: o.params,
    body: o.patch,
    success: { status: 200, schema: o.item },
    errors: ["conflict", "not_found"],
  }),
});

export const nftIdParams = z
  .object({ id: z.string().regex(/^[A-Za-z0-9_-]{6,32}$/, "is not an NFT id") })
  .strict();

export const adminEndpoints = {
  me: endpoint({
    operationId: "adminMe",
    method: "GET",
    path: "/api/v1/admin/me",
    summary: "Console: the signed-in staff member's role and, for a studio account, its production house",
    tags,
    success: { status: 200, schema: consoleMeSchema },
  }),
  studios: crud("Studio", "studios", {
    item: studioSchema,
    input: studioInputSchema,
    patch: patchOf(studioInputSchema),
    params: idParam,
    id: "id",
  }),
  celebrities: crud("Celebrity", "celebrities", {
    item: celebritySchema,
    input: celebrityInputSchema,
    patch: patchOf(celebrityInputSchema),
    params: idParam,
    id: "id",
  }),
  films: crud("Film", "films", {
    item: adminFilmSchema,
    input: filmInputSchema,
    patch: filmPatchSchema,
    params: idParam,
    id: "id",
  }),
  nfts: crud("Nft", "nfts", {
    item: adminNftSchema,
    input: nftInputSchema,
    patch: nftPatchSchema,
    params: nftIdParams,
    id: "id",
  }),
  posts: crud("Post", "posts", {
    item: adminPostSchema,
    input: adminPostInputSchema,
    patch: adminPostPatchSchema,
    params: postSlugParamsSchema,
    id: "slug",
  }),
  upload: endpoint({
    operationId: "adminUploadImage",
    method: "POST",
    path: "/api/v1/admin/images",
    summary:
      'Console: upload an image (multipart/form-data, one field "file": JPEG or PNG, at most 5 MiB), checked by content and re-encoded; answers the URLs of its renditions',
    tags,
    query: z.object({ purpose: uploadPurposeSchema }).strict(),
    body: z.object({ file: z.file().describe("A JPEG or PNG image, at most 5 MiB") }),
    bodyType: "multipart",
    success: { status: 201, schema: uploadResponseSchema },
    errors: ["validation_failed", "payload_too_large", "unsupported_media_type"],
  }),
  listUsers: endpoint({
    operationId: "adminListUsers",
    method: "GET",
    path: "/api/v1/admin/users",
    summary: "Console: accounts, newest first, optionally matching `q` (name or email)",
    tags,
    query: userListQuerySchema,
    success: { status: 200, schema: page(adminUserSchema) },
  }),
  suspendUser: endpoint({
    operationId: "adminSuspendUser",
    method: "POST",
    path: "/api/v1/admin/users/{id}/suspend",
    summary: "Console: suspend an account (sign-in refused, every session ended; audited)",
    tags,
    params: userIdParamsSchema,
    success: { status: 200, schema: adminUserSchema },
    errors: ["not_found", "conflict"],
  }),
  unsuspendUser: endpoint({
    operationId: "adminUnsuspendUser",
    method: "POST",
    path: "/api/v1/admin/users/{id}/unsuspend",
    summary: "Console: reinstate a suspended account (audited)",
    tags,
    params: userIdParamsSchema,
    success: { status: 200, schema: adminUserSchema },
    errors: ["not_found"],
  }),
  setUserRole: endpoint({
    operationId: "adminSetUserRole",
    method: "PUT",
    path: "/api/v1/admin/users/{id}/role",
    summary:
      "Console: make an account a user, an administrator or a studio account of one production house (audited)",
    tags,
    params: userIdParamsSchema,
    body: userRoleInputSchema,
    success: { status: 200, schema: adminUserSchema },
    errors: ["not_found", "conflict"],
  }),
  contactMessages: endpoint({
    operationId: "adminListContactMessages",
    method: "GET",
    path: "/api/v1/admin/contact-messages",
    summary: "Console: the contact form's messages, newest first",
    tags,
    query: pageQuerySchema,
    success: { status: 200, schema: page(contactMessageSchema) },
  }),
  newsletterCsv: endpoint({
    operationId: "adminExportNewsletter",
    method: "GET",
    path: "/api/v1/admin/newsletter.csv",
    summary: "Console: the newsletter's subscribers as CSV (email, subscribed_at; audited)",
    tags,
    success: { status: 200, schema: z.string(), contentType: "text/csv" },
  }),
  auditLog: endpoint({
    operationId: "adminAuditLog",
    method: "GET",
    path: "/api/v1/admin/audit-log",
    summary: "Console: every console action (who, what, when, before and after), newest first",
    tags,
    query: pageQuerySchema,
    success: { status: 200, schema: page(auditEntrySchema) },
  }),
  hiddenTokens: endpoint({
    operationId: "adminListHiddenTokens",
    method: "GET",
    path: "/api/v1/admin/hidden-tokens",
    summary: "Console: tokens hidden from our marketplace (suspended or voided under the terms)",
    tags,
    success: { status: 200, schema: list(hiddenTokenSchema) },
  }),
  hideToken: endpoint({
    operationId: "adminHideToken",
    method: "PUT",
    path: "/api/v1/admin/hidden-tokens/{tokenId}",
    summary: "Console: hide a token from our marketplace (suspension or voiding under the terms; audited)",
    tags,
    params: tokenIdParamsSchema,
    body: hideTokenInputSchema,
    success: { status: 200, schema: hiddenTokenSchema },
  }),
  unhideToken: endpoint({
    operationId: "adminUnhideToken",
    method: "DELETE",
    path: "/api/v1/admin/hidden-tokens/{tokenId}",
    summary: "Console: show a hidden token again (audited)",
    tags,
    params: tokenIdParamsSchema,
    success: { status: 204 },
    errors: ["not_found"],
  }),
  chainMetadata: endpoint({
    operationId: "adminChainMetadata",
    method: "GET",
    path: "/api/v1/admin/chain/metadata",
    summary: "Console: where the collectible's token URIs point (its base URI, read from the chain)",
    tags,
    success: { status: 200, schema: chainMetadataSchema },
    errors: ["unavailable"],
  }),
  // `rootCid` is the root `npm run export:ipfs` printed. 400 validation_failed when it is not the CID of
  // a UnixFS directory; 409 conflict when the server does not hold the collectible's admin key (the
  // details give the call for the admin multisig); 503 unavailable without a chain or a mined transaction.
  ipfsExit: endpoint({
    operationId: "adminChainIpfsExit",
    method: "POST",
    path: "/api/v1/admin/chain/ipfs-exit",
    summary:
      "Console: point the collectible's base URI at an IPFS snapshot (ipfs://<root>/metadata/), emitting ERC-4906 BatchMetadataUpdate; audited",
    tags,
    body: ipfsExitInputSchema,
    success: { status: 200, schema: ipfsExitResultSchema },
    errors: ["conflict", "unavailable"],
  }),
};
