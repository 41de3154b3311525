import { sql } from "drizzle-orm";
import type { Database, Db } from "../../db/client.ts";
import { rowsOf } from "../../lib/rate-limit.ts";
import { withTransaction } from "../../platform/tx.ts";
import type { MailMessage, Mailer } from "./mailer.ts";

// The mail module's public surface (other modules import only this file): the mailer's types, the
// templates, once-only delivery for mail jobs, and the clean-up of delivery records.
export type { MailMessage, Mailer } from "./mailer.ts";
export {
  confirmDeletionMail,
  dataExportMail,
  emailChangedMail,
  escapeHtml,
  lotteryWonMail,
  notificationMail,
  orderConfirmedMail,
  orderRefundedMail,
  passwordChangedMail,
  passwordResetMail,
  verificationMail,
  walletRecoveryMail,
} from "./templates.ts";

/**
 * Delivers the mail of one job at most once per job id, so a job run again after a crash sends
 * nothing twice. `compose` builds the message (and may write, e.g. issue a token, through the
 * given handle); it returns null when there is nothing to send.
 *
 * Dev mailbox: the delivery record, whatever `compose` wrote and the stored mail commit together
 * (exactly once). SMTP: the record is written after the server accepted the mail; a crash between
 * the two can repeat that one mail (decision 060).
 */
export async function deliverOnce(
  deps: { database: Database; mailer: Mailer },
  jobId: string,
  compose: (db: Db) => Promise<MailMessage | null>,
): Promise<"sent" | "already-sent" | "nothing-to-send"> {
  const { database, mailer } = deps;
  if (mailer.kind === "dev") {
    return withTransaction(database, async (tx) => {
      const claimed = await tx.query(
        "INSERT INTO mail_deliveries (job_id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING job_id",
        [jobId],
      );
      if (claimed.length === 0) return "already-sent";
      const message = await compose(tx.db);
      if (!message) return "nothing-to-send";
      await mailer.send(message, { db: tx.db });
      return "sent";
    });
  }
  const done = await database.query("SELECT 1 FROM mail_deliveries WHERE job_id = $1", [jobId]);
  if (done.length > 0) return "already-sent";
  // Whatever composing writes (a token, the older links it revokes) commits together.
  const message = await withTransaction(database, (tx) => compose(tx.db));
  if (!message) return "nothing-to-send";
  await mailer.send(message);
  await database.query("INSERT INTO mail_deliveries (job_id) VALUES ($1) ON CONFLICT DO NOTHING", [jobId]);
  return "sent";
}

/** Forgets delivery records older than a week (their jobs are archived long before); returns how many. */
export async function pruneMailDeliveries(db: Db, now: Date): Promise<number> {
  const rows = await db.execute(sql`WITH d AS (DELETE FROM mail_deliveries
      WHERE delivered_at < ${now.toISOString()}::timestamptz - interval '7 days'
      RETURNING 1) SELECT count(*)::int AS n FROM d`);
  return Number(rowsOf<{ n: number }>(rows)[0]?.n ?? 0);
}

// Data rights (decision 170): this module's part of the archive and of the erasure.
export { eraseMailLog, exportMailLog } from "./personal-data.ts";
