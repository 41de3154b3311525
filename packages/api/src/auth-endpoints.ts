import { z } from "zod";
import { IMAGE_MAX_BYTES, googleStartQuerySchema, userResponseSchema } from "./auth.ts";
import { endpoint } from "./endpoint.ts";

const tags = ["accounts"] as const;

/** Google sign-in (OpenID Connect): browser redirects, not JSON. */
export const googleEndpoints = {
  start: endpoint({
    operationId: "startGoogleSignIn",
    method: "GET",
    path: "/api/v1/auth/google/start",
    summary:
      "Start Google sign-in: redirects (302) to Google, or to /login?error=google when it is off. `next` is where to land after.",
    tags,
    query: googleStartQuerySchema.describe("Where to go after signing in (a path on this site)"),
    success: { status: 302 },
    errors: ["rate_limited"],
  }),
  callback: endpoint({
    operationId: "finishGoogleSignIn",
    method: "GET",
    path: "/api/v1/auth/google/callback",
    summary:
      "Google's redirect back: signs in (sets the session cookie) and redirects (302) to `next`, or to /login?error=google",
    tags,
    query: z
      .object({ code: z.string().optional(), state: z.string().optional(), error: z.string().optional() })
      .describe("OpenID Connect authorization response"),
    success: { status: 302 },
  }),
};

/** The multipart body of an image upload: one field `file`, a JPEG or PNG of at most 5 MiB. */
export const imageUploadBodySchema = z.object({
  file: z.file().describe(`A JPEG or PNG image, at most ${IMAGE_MAX_BYTES} bytes`),
});

const imageUpload = (kind: "avatar" | "cover") =>
  endpoint({
    operationId: kind === "avatar" ? "uploadAvatar" : "uploadCover",
    method: "POST",
    path: `/api/v1/me/${kind}`,
    summary: `Upload a new ${kind} (multipart/form-data, one field "file": JPEG or PNG, at most 5 MiB)`,
    tags: ["profile"],
    body: imageUploadBodySchema,
    bodyType: "multipart",
    success: { status: 200, schema: userResponseSchema },
    errors: ["validation_failed", "payload_too_large", "unsupported_media_type"],
  });

/** The signed-in user's profile images. */
export const profileImageEndpoints = { avatar: imageUpload("avatar"), cover: imageUpload("cover") };
