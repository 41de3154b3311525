import { randomBytes } from "node:crypto";
import type { AppContext } from "../src/context.ts";
import { type UserRow, sessions, users } from "../src/modules/accounts/tables.ts";
import { hashPassword } from "../src/modules/accounts/password.ts";
import { SESSION_COOKIE, SESSION_TTL_SECONDS } from "../src/modules/accounts/session.ts";
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
  role?: "user" | "admin";
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
