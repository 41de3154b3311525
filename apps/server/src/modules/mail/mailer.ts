import { desc } from "drizzle-orm";
import nodemailer from "nodemailer";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import type { RetryPolicy } from "../../platform/jobs/jobs.ts";
import { devMail } from "./tables.ts";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers by name, e.g. List-Unsubscribe (RFC 8058); the dev mailbox stores them too. */
  headers?: Record<string, string>;
}

/** Sends mail: through SMTP when SMTP_URL is set, otherwise into the dev mailbox table. */
export interface Mailer {
  readonly kind: "smtp" | "dev";
  /** How a mail job retries a failed delivery: six times, from MAIL_RETRY_SECONDS, doubling. */
  readonly retry: RetryPolicy;
  /** `db`: where the dev mailbox stores the mail (a transaction's handle, to commit with it). */
  send(message: MailMessage, opts?: { db?: Db }): Promise<void>;
}

/** How long one SMTP delivery may take before it counts as failed. */
const SEND_TIMEOUT_MS = 20_000;

/** Every http(s) link in a text body, in order, without duplicates. */
export function extractLinks(text: string): string[] {
  const found = text.match(/https?:\/\/[^\s<>"')]+/g) ?? [];
  return [...new Set(found)];
}

export function createMailer(config: Config, db: Db): Mailer {
  const retry: RetryPolicy = { limit: 6, delaySeconds: config.MAIL_RETRY_SECONDS, backoff: true };
  if (config.SMTP_URL) {
    const transport = nodemailer.createTransport({
      url: config.SMTP_URL,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 15_000,
    } as Parameters<typeof nodemailer.createTransport>[0]);
    return {
      kind: "smtp",
      retry,
      async send(message) {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error("SMTP send timed out")), SEND_TIMEOUT_MS);
        });
        try {
          await Promise.race([
            transport.sendMail({
              from: config.MAIL_FROM,
              to: message.to,
              subject: message.subject,
              text: message.text,
              html: message.html,
              ...(message.headers ? { headers: message.headers } : {}),
            }),
            timeout,
          ]);
        } finally {
          clearTimeout(timer);
        }
      },
    };
  }
  return {
    kind: "dev",
    retry,
    async send(message, opts) {
      await (opts?.db ?? db).insert(devMail).values({
        toAddress: message.to,
        subject: message.subject,
        textBody: message.text,
        htmlBody: message.html,
        links: extractLinks(message.text),
        headers: message.headers ?? {},
      });
    },
  };
}

/** Newest first; the dev mailbox keeps at most `limit` messages on screen. */
export async function listDevMail(db: Db, limit = 200) {
  return db.select().from(devMail).orderBy(desc(devMail.createdAt)).limit(limit);
}
