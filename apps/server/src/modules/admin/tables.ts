// Drizzle definitions of the admin module's tables; they mirror
// migrations/0090_studio_role_and_audit_log.sql (the SQL file is the source of truth).
import { bigserial, index, jsonb, numeric, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

export const adminAuditLog = pgTable(
  "admin_audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    actorId: uuid("actor_id"),
    actorEmail: text("actor_email").notNull(),
    actorRole: text("actor_role").notNull(),
    action: text("action").notNull(),
    subjectType: text("subject_type").notNull(),
    subjectId: text("subject_id").notNull(),
    before: jsonb("before"),
    after: jsonb("after"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("admin_audit_log_created_idx").on(t.createdAt.desc(), t.id.desc()),
    index("admin_audit_log_subject_idx").on(t.subjectType, t.subjectId),
  ],
);

export const hiddenTokens = pgTable("hidden_tokens", {
  tokenId: numeric("token_id", { precision: 78, scale: 0 }).primaryKey(),
  reason: text("reason", { enum: ["suspended", "voided"] }).notNull(),
  note: text("note").notNull().default(""),
  hiddenBy: uuid("hidden_by"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
