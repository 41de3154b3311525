import { z } from "zod";
import { devMailboxResponseSchema } from "./auth.ts";
import { endpoint } from "./endpoint.ts";

export const healthSchema = z.object({ status: z.literal("ok") });
export const readinessSchema = z.object({ status: z.literal("ready") });

const tags = ["platform"] as const;

/** Health, readiness and the development mailbox. */
export const platformEndpoints = {
  health: endpoint({
    operationId: "getHealth",
    method: "GET",
    path: "/healthz",
    summary: "Liveness: the process answers",
    tags,
    success: { status: 200, schema: healthSchema },
  }),
  readiness: endpoint({
    operationId: "getReadiness",
    method: "GET",
    path: "/readyz",
    summary: "Readiness: the database answers (503 when it does not)",
    tags,
    success: { status: 200, schema: readinessSchema },
    errors: ["unavailable"],
  }),
  devMailbox: endpoint({
    operationId: "listDevMail",
    method: "GET",
    path: "/dev/mailbox/api",
    summary: "Development only: every stored mail with its links (never in production)",
    tags,
    success: { status: 200, schema: devMailboxResponseSchema },
    errors: ["forbidden"],
  }),
  devMailboxPage: endpoint({
    operationId: "showDevMailbox",
    method: "GET",
    path: "/dev/mailbox",
    summary: "Development only: the stored mail as an HTML page",
    tags,
    success: { status: 200, schema: z.string(), contentType: "text/html" },
    errors: ["forbidden"],
  }),
};
