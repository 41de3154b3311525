import { platformEndpoints } from "@diginoor/api/platform";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import type { Mailer } from "./mailer.ts";
import { AppError } from "../../http/errors.ts";
import { route } from "../../http/route.ts";
import { listDevMail } from "./mailer.ts";
import { escapeHtml } from "./templates.ts";

/**
 * Creates the mailer (available as `app.mailer`) and, where it is safe (config `devMailbox`, from
 * DEV_MAILBOX and PUBLIC_URL), the dev mailbox: GET /dev/mailbox (HTML) and GET /dev/mailbox/api (JSON).
 * It shows every verification and reset link, so by default only clients on this machine see it.
 */
export async function registerMail(
  app: FastifyInstance,
  ctx: { devMailbox: Config["devMailbox"]; db: Db; mailer: Pick<Mailer, "kind"> },
): Promise<void> {
  const access = ctx.devMailbox;
  if (access === "off") return;

  const onlyHere = (req: FastifyRequest) => {
    // The socket's peer, not req.ip: a forwarded-for header must not open the mailbox.
    if (access === "loopback" && !isLoopbackAddress(req.socket.remoteAddress))
      throw AppError.forbidden(
        "The dev mailbox answers only on this machine (set DEV_MAILBOX=true to open it to the network)",
      );
  };

  route(app, platformEndpoints.devMailbox, {
    permission: "public",
    handler: async ({ req }) => {
      onlyHere(req);
      const rows = await listDevMail(ctx.db);
      return {
        messages: rows.map((m) => ({
          id: m.id,
          to: m.toAddress,
          subject: m.subject,
          text: m.textBody,
          html: m.htmlBody,
          links: m.links,
          headers: m.headers,
          createdAt: m.createdAt.toISOString(),
        })),
      };
    },
  });

  route(app, platformEndpoints.devMailboxPage, {
    permission: "public",
    handler: async ({ req, reply }) => {
      onlyHere(req);
      const rows = await listDevMail(ctx.db);
      const items = rows
        .map(
          (m) => `<li class="mail">
  <div class="subject">${escapeHtml(m.subject)}</div>
  <div class="meta">To <b>${escapeHtml(m.toAddress)}</b> · <time datetime="${m.createdAt.toISOString()}">${escapeHtml(m.createdAt.toISOString().replace("T", " ").slice(0, 19))} UTC</time></div>
  <ul class="links">${m.links.map((l) => `<li><a href="${escapeHtml(l)}">${escapeHtml(l)}</a></li>`).join("")}</ul>
  <details><summary>Text</summary><pre>${escapeHtml(m.textBody)}</pre></details>
</li>`,
        )
        .join("\n");
      const note =
        ctx.mailer.kind === "smtp"
          ? "<p>SMTP_URL is set: new mail goes to the SMTP server, not here.</p>"
          : "";
      return reply
        .type("text/html; charset=utf-8")
        .header("cache-control", "no-store")
        .header("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'")
        .send(`<!doctype html><html><head><meta charset="utf-8"><title>Dev mailbox · Diginoor</title>
<style>body{font-family:Inter,Arial,sans-serif;max-width:860px;margin:24px auto;padding:0 16px;color:#111}
.mail{border:1px solid #ddd;border-radius:8px;padding:12px 16px;margin:0 0 12px;list-style:none}
.subject{font-weight:600;font-size:17px}.meta{color:#555;font-size:13px;margin:4px 0}
ul{padding:0}.links li{list-style:none;margin:4px 0;word-break:break-all}pre{white-space:pre-wrap}</style></head>
<body><h1>Dev mailbox</h1><p>Mail sent by this server while no SMTP server is configured, newest first. Not available in production.</p>${note}
<ul id="messages">${items || "<li>No mail yet.</li>"}</ul></body></html>`);
    },
  });
}

/** 127.0.0.0/8, ::1 and their IPv4-mapped forms. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith("::ffff:") ? address.slice(7) : address;
  return v4.startsWith("127.") || address === "::1";
}
