import { randomBytes } from "node:crypto";
import type { AppContext } from "../src/context.ts";
import { type UserRow, sessions, users } from "../src/modules/accounts/tables.ts";
import { hashPassword } from "../src/modules/accounts/password.ts";
import { SESSION_TTL_SECONDS } from "../src/modules/accounts/service.ts";
import { SESSION_COOKIE } from "../src/modules/accounts/session.ts";
import { hashSecret, newSecret } from "../src/modules/accounts/tokens.ts";

/**
 * Factories that put accounts straight into the database (like immich's `ctx.newUser()`): a test
 * that is about something else does not walk sign-up, the mailbox and sign-in to get a user.
 * Everything they insert is what the application itself would insert.
 */

/** The password every factory user has; hashed once per process (argon2 is slow on purpose). */
export const FACTORY_PASSWORD = "factory-password-1";
let factoryHash: Promise<string> | undefined;

let counter = 0;
/** A unique address per call (per process), so tests never collide whatever their order. */
export function uniqueEmail(prefix = "user"): string {
  counter++;
  return `${prefix}-${counter}-${randomBytes(3).toString("hex")}@example.com`;
}

export interface NewUserOptions {
  email?: string;
  name?: string;
  /** Default true. */
  verified?: boolean;
  role?: "user" | "admin" | "studio";
  /** Required with role "studio": the production house the account manages. */
  productionHouseId?: number;
  /** Default: FACTORY_PASSWORD; null for a Google-only account. */
  password?: string | null;
  googleSub?: string;
  createdAt?: Date;
  suspended?: boolean;
}

export async function newUser(ctx: Pick<AppContext, "db">, o: NewUserOptions = {}): Promise<UserRow> {
  let passwordHash: string | null = null;
  if (o.password === undefined || o.password === FACTORY_PASSWORD) {
    factoryHash ??= hashPassword(FACTORY_PASSWORD);
    passwordHash = await factoryHash;
  } else if (o.password !== null) {
    passwordHash = await hashPassword(o.password);
  }
  const createdAt = o.createdAt ?? new Date();
  const [user] = await ctx.db
    .insert(users)
    .values({
      name: o.name ?? "Factory Fan",
      email: (o.email ?? uniqueEmail()).toLowerCase(),
      passwordHash,
      emailVerifiedAt: o.verified === false ? null : createdAt,
      googleSub: o.googleSub ?? null,
      role: o.role ?? "user",
      productionHouseId: o.productionHouseId ?? null,
      suspendedAt: o.suspended ? new Date() : null,
      createdAt,
      updatedAt: createdAt,
    })
    .returning();
  if (!user) throw new Error("newUser: insert returned nothing");
  return user;
}

export interface NewSessionOptions {
  createdAt?: Date;
  lastSeenAt?: Date;
  expiresAt?: Date;
}

/** A signed-in session for `userId`; `cookie` is the header value to send. */
export async function newSession(
  ctx: Pick<AppContext, "db">,
  userId: string,
  o: NewSessionOptions = {},
): Promise<{ secret: string; idHash: string; cookie: string }> {
  const secret = newSecret();
  const createdAt = o.createdAt ?? new Date();
  await ctx.db.insert(sessions).values({
    idHash: hashSecret(secret),
    userId,
    createdAt,
    lastSeenAt: o.lastSeenAt ?? createdAt,
    expiresAt: o.expiresAt ?? new Date(createdAt.getTime() + SESSION_TTL_SECONDS * 1000),
  });
  return { secret, idHash: hashSecret(secret), cookie: `${SESSION_COOKIE}=${secret}` };
}

/** A verified user with one live session. */
export async function newSignedInUser(ctx: Pick<AppContext, "db">, o: NewUserOptions = {}) {
  const user = await newUser(ctx, o);
  const session = await newSession(ctx, user.id);
  return { user, ...session };
}

export interface NewNftOptions {
  id?: string;
  saleType?: "fixed" | "auction";
  priceUsdCents?: number;
  editionSize?: number;
  editionsAvailable?: number;
}

let nftCounter = 0;
/**
 * A catalogue NFT (with its own production house, film and star) straight in the database, for tests
 * about selling it rather than about the catalogue. Returns its id.
 */
export async function newNft(ctx: Pick<AppContext, "database">, o: NewNftOptions = {}): Promise<string> {
  nftCounter++;
  const tag = `f${nftCounter}${randomBytes(3).toString("hex")}`;
  const q = ctx.database.query.bind(ctx.database);
  const [house] = await q<{ id: number }>(
    "INSERT INTO production_houses (slug, name, logo_url) VALUES ($1, $2, '/l.svg') RETURNING id",
    [`house-${tag}`, `House ${tag}`],
  );
  const [film] = await q<{ id: number }>(
    `INSERT INTO films (slug, name, poster_url, banner_url, thumbnail_url, production_house_id)
     VALUES ($1, $2, '/p.svg', '/b.svg', '/t.svg', $3) RETURNING id`,
    [`film-${tag}`, `Film ${tag}`, house!.id],
  );
  const [star] = await q<{ id: number }>(
    "INSERT INTO celebrities (slug, name) VALUES ($1, $2) RETURNING id",
    [`star-${tag}`, `Star ${tag}`],
  );
  const id = o.id ?? `nft${tag}`;
  const size = o.editionSize ?? 10;
  const auction = o.saleType === "auction";
  await q(
    `INSERT INTO nfts (id, title, tier, category, film_id, celebrity_id, production_house_id, image_url,
       thumbnail_url, edition_size, editions_available, sale_type, price_usd_cents, auction_duration_days)
     VALUES ($1, $2, 'rare', 'Scene', $3, $4, $5, '/i.svg', '/t.svg', $6, $7, $8, $9, $10)`,
    [
      id,
      `Title ${tag}`,
      film!.id,
      star!.id,
      house!.id,
      size,
      o.editionsAvailable ?? size,
      auction ? "auction" : "fixed",
      o.priceUsdCents ?? 2500,
      auction ? 3 : null,
    ],
  );
  return id;
}
