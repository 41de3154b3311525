import { emailSchema } from "@diginoor/api/auth";
import { eq, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { users } from "./tables.ts";
import { findUserByEmail, issueToken, revokeTokens } from "./accounts.ts";
import { endAllSessions } from "./session.ts";

export interface PromoteResult {
  userId: string;
  created: boolean;
  /** For a new (or never-verified) account: a one-hour link to choose its password. */
  setPasswordUrl?: string;
}

/**
 * Makes `email` an administrator. An existing account is promoted; otherwise an account is
 * created (email counted as verified, no password yet) and a password-setting link is returned.
 */
export async function promoteToAdmin(ctx: AppContext, rawEmail: string): Promise<PromoteResult> {
  const email = emailSchema.parse(rawEmail);
  const existing = await findUserByEmail(ctx, email);
  if (existing?.emailVerifiedAt) {
    await ctx.db.update(users).set({ role: "admin", updatedAt: sql`now()` }).where(eq(users.id, existing.id));
    return { userId: existing.id, created: false };
  }
  if (existing) {
    // Never verified: whoever signed up may not own the address (a squatter's password would become
    // an admin's). Treat it like a new account: password dropped, links revoked, a set-password link.
    await ctx.db
      .update(users)
      .set({ role: "admin", passwordHash: null, emailVerifiedAt: sql`now()`, updatedAt: sql`now()` })
      .where(eq(users.id, existing.id));
    await revokeTokens(ctx, existing.id, "verify_email");
    await revokeTokens(ctx, existing.id, "password_reset");
    await endAllSessions(ctx.db, existing.id);
    const token = await issueToken(ctx, existing.id, "password_reset", existing.email);
    return {
      userId: existing.id,
      created: false,
      setPasswordUrl: `${ctx.config.PUBLIC_URL}/resetpass?token=${token}`,
    };
  }
  const name = (email.split("@")[0] ?? "Admin").slice(0, 100) || "Admin";
  const [created] = await ctx.db
    .insert(users)
    .values({ name, email, role: "admin", emailVerifiedAt: new Date() })
    .returning();
  if (!created) throw new Error("Could not create the admin account");
  const token = await issueToken(ctx, created.id, "password_reset", email);
  return {
    userId: created.id,
    created: true,
    setPasswordUrl: `${ctx.config.PUBLIC_URL}/resetpass?token=${token}`,
  };
}

/** Suspends (blocks sign-in and ends every session) or reinstates an account. */
export async function setSuspended(ctx: AppContext, rawEmail: string, suspended: boolean): Promise<string> {
  const email = emailSchema.parse(rawEmail);
  const user = await findUserByEmail(ctx, email);
  if (!user) throw new Error(`No account with email ${email}`);
  await ctx.db
    .update(users)
    .set({
      suspendedAt: suspended ? sql`coalesce(${users.suspendedAt}, now())` : null,
      updatedAt: sql`now()`,
    })
    .where(eq(users.id, user.id));
  if (suspended) await endAllSessions(ctx.db, user.id);
  return user.id;
}
