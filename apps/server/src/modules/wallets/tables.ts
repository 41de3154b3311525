// Drizzle definitions of the wallets module's tables; they mirror migrations/0070_wallets.sql and 0127_passkey_wallets.sql (the SQL
// is the source of truth: CHECKs, the partial unique index and the foreign keys to users live there).
import { boolean, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

export const walletNonces = pgTable(
  "wallet_nonces",
  {
    nonce: text("nonce").primaryKey(),
    userId: uuid("user_id").notNull(), // → users(id) ON DELETE CASCADE (in the SQL)
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [index("wallet_nonces_user_idx").on(t.userId, t.createdAt)],
);

export const wallets = pgTable(
  "wallets",
  {
    address: text("address").primaryKey(),
    userId: uuid("user_id").notNull(), // → users(id) ON DELETE CASCADE (in the SQL)
    chainId: integer("chain_id").notNull(),
    receivesPurchases: boolean("receives_purchases").notNull().default(false),
    linkedAt: timestamp("linked_at", { withTimezone: true }).notNull(),
    /** 'siwe' (external wallet) or 'passkey' (our ERC-4337 account of a passkey); migration 0127. */
    kind: text("kind").$type<"siwe" | "passkey">().notNull().default("siwe"),
    /** A passkey wallet's guardian, part of its address (decision 185; migration 0198); null: none. */
    guardian: text("guardian"),
  },
  (t) => [index("wallets_user_idx").on(t.userId, t.linkedAt)],
);

/** The passkey of a passkey wallet (migrations/0127_passkey_wallets.sql): public data only. */
export const passkeyCredentials = pgTable(
  "passkey_credentials",
  {
    credentialId: text("credential_id").primaryKey(),
    address: text("address").notNull(), // → wallets(address) ON DELETE CASCADE (in the SQL); several per wallet since 0175
    userId: uuid("user_id").notNull(),
    publicKey: text("public_key").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("passkey_credentials_user_idx").on(t.userId)],
);

export type PasskeyCredentialRow = typeof passkeyCredentials.$inferSelect;

export type WalletRow = typeof wallets.$inferSelect;

/** Recoveries of passkey wallets (migrations/0165_wallet_recoveries.sql), written in SQL by recovery.ts. */
/** Requests to add a passkey of another device (migrations/0175_wallet_passkey_devices.sql), written in SQL by devices.ts. */
/** Sponsorships of the verifying paymaster (migrations/0197_sponsorships.sql), written in SQL by sponsorship.ts. */
export const ownedTables = ["wallet_recoveries", "wallet_passkey_requests", "sponsorships"] as const;

/** Every wallet ever linked to an account (migrations/0196_editions_and_abuse_bounds.sql): written by a trigger on `wallets`. */
export const walletLinkHistory = pgTable("wallet_link_history", {
  userId: uuid("user_id").notNull(), // → users(id) ON DELETE CASCADE (in the SQL); primary key (user_id, address)
  address: text("address").notNull(),
  firstLinkedAt: timestamp("first_linked_at", { withTimezone: true }).notNull(),
});
