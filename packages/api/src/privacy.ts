// Data rights (issue 25 point 2, the Digital Personal Data Protection Act 2023): a copy of everything
// we hold about the signed-in user, and the erasure of their account (decision 170).
import { z } from "zod";
import { okResponseSchema } from "./auth.ts";
import { endpoint } from "./endpoint.ts";

/** How long the mailed download link of an archive works (once). */
export const EXPORT_LINK_HOURS = 48;
/** How long the mailed confirmation link of a Google-only account's deletion works. */
export const DELETE_LINK_HOURS = 1;

export const privacyMessages = {
  exportQueued:
    "We are preparing your data. A download link will arrive by email; it works once, for 48 hours.",
  exportGone: "This download link has been used or has expired. Ask for a new copy from Edit Profile.",
  deleteConfirmMailed:
    "Your account signs in with Google: we have emailed you a link to confirm the deletion (it works for 1 hour).",
  deleted: "Your account has been deleted.",
  passwordRequired: "Enter your password to delete your account",
} as const;

export const deleteAccountRequestSchema = z.object({
  /** Required for an account with a password; a Google-only account leaves it out and confirms by mail. */
  password: z.string().max(200).optional(),
});
export type DeleteAccountRequest = z.infer<typeof deleteAccountRequestSchema>;

export const deleteAccountResponseSchema = z.object({
  /** True when the account is gone now; false when a confirmation link was mailed (Google-only account). */
  deleted: z.boolean(),
  message: z.string(),
});
export type DeleteAccountResponse = z.infer<typeof deleteAccountResponseSchema>;

const tokenSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/, "Not a valid link");

export const confirmDeleteRequestSchema = z.object({ token: tokenSchema });

/** The archive: one part per module, each a list of records or an object (shape documented by decision 170). */
export const dataExportSchema = z.object({
  format: z.literal("diginoor-personal-data/1"),
  generatedAt: z.string(),
  userId: z.string(),
  parts: z.record(z.string(), z.unknown()),
});
export type DataExport = z.infer<typeof dataExportSchema>;

/** The newsletter consent of the signed-in user's address: given or not, and since when. */
export const newsletterConsentSchema = z.object({
  subscribed: z.boolean(),
  /** ISO 8601 time the consent was given; null when not subscribed. */
  since: z.string().nullable(),
});
export type NewsletterConsent = z.infer<typeof newsletterConsentSchema>;
export const setNewsletterConsentRequestSchema = z.object({ subscribed: z.boolean() });

export const privacyEndpoints = {
  getNewsletterConsent: endpoint({
    operationId: "getNewsletterConsent",
    method: "GET",
    path: "/api/v1/me/newsletter",
    summary: "Whether your address receives the newsletter, and since when (a recorded mail consent)",
    tags: ["profile"],
    success: { status: 200, schema: newsletterConsentSchema },
  }),
  setNewsletterConsent: endpoint({
    operationId: "setNewsletterConsent",
    method: "PUT",
    path: "/api/v1/me/newsletter",
    summary: "Give or withdraw your newsletter consent",
    tags: ["profile"],
    body: setNewsletterConsentRequestSchema,
    success: { status: 200, schema: newsletterConsentSchema },
  }),
  requestExport: endpoint({
    operationId: "requestDataExport",
    method: "POST",
    path: "/api/v1/me/export",
    summary: "Ask for a copy of all your data: an archive is built and a one-time download link mailed",
    tags: ["profile"],
    success: { status: 202, schema: okResponseSchema },
  }),
  downloadExport: endpoint({
    operationId: "downloadDataExport",
    method: "GET",
    path: "/api/v1/me/export/{token}",
    summary: "Download the archive of your data (the mailed link works once, for a limited time)",
    tags: ["profile"],
    params: z.object({ token: tokenSchema }),
    success: { status: 200, schema: dataExportSchema },
    errors: ["gone"],
  }),
  deleteAccount: endpoint({
    operationId: "deleteAccount",
    method: "POST",
    path: "/api/v1/me/delete",
    summary:
      "Delete your account (password required; a Google-only account gets a confirmation link by email)",
    tags: ["profile"],
    body: deleteAccountRequestSchema,
    success: { status: 200, schema: deleteAccountResponseSchema },
    errors: ["invalid_credentials", "mail_failed"],
  }),
  confirmDelete: endpoint({
    operationId: "confirmAccountDeletion",
    method: "POST",
    path: "/api/v1/me/delete/confirm",
    summary: "Delete a Google-only account with the link mailed by POST /api/v1/me/delete",
    tags: ["profile"],
    body: confirmDeleteRequestSchema,
    success: { status: 200, schema: deleteAccountResponseSchema },
    errors: ["invalid_token"],
  }),
};
