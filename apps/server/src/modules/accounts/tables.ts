// Drizzle definitions of the accounts tables; they mirror migrations/0003_accounts.sql exactly
// (the SQL file is the source of truth, including CHECK constraints and the lower(email) index).
import { sql } from "drizzle-orm";
import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    /** Public handle (/u/:handle); set by a trigger when the row is inserted (migrations/0100). */
    handle: text("handle"),
    email: text("email").notNull(),
    phone: text("phone"),
    passwordHash: text("password_hash"),
    emailVerifiedAt: timestamp("email_verified_at", { withTimezone: true }),
    googleSub: text("google_sub"),
    role: text("role", { enum: ["user", "admin", "studio"] })
      .notNull()
      .default("user"),
    /** A studio account's production house (migrations/0090; null for other roles). */
    productionHouseId: integer("production_house_id"),
    suspendedAt: timestamp("suspended_at", { withTimezone: true }),
    /** When the account was erased (migrations/0170): the row stays, with no personal data left. */
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    avatarKey: text("avatar_key"),
    avatarUrl: text("avatar_url"),
    coverKey: text("cover_key"),
    coverUrl: text("cover_url"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("users_email_lower_uq").on(sql`lower(${t.email})`),
    uniqueIndex("users_google_sub_uq").on(t.googleSub).where(sql`${t.googleSub} IS NOT NULL`),
  ],
);
export type UserRow = typeof users.$inferSelect;

export const sessions = pgTable(
  "sessions",
  {
    idHash: text("id_hash").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    userAgent: text("user_agent"),
    ip: text("ip"),
  },
  (t) => [index("sessions_user_idx").on(t.userId), index("sessions_expires_idx").on(t.expiresAt)],
);

export const authTokens = pgTable(
  "auth_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["verify_email", "password_reset"] }).notNull(),
    email: text("email").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [index("auth_tokens_user_kind_idx").on(t.userId, t.kind)],
);

/** Handles of erased accounts (sha256 only), held back from new accounts until free_after (migrations/0170). */
export const releasedHandles = pgTable("released_handles", {
  handleSha256: text("handle_sha256").primaryKey(),
  freeAfter: timestamp("free_after", { withTimezone: true }).notNull(),
});
