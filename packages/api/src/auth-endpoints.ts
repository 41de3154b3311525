import { z } from "zod";
import {
  changeEmailRequestSchema,
  changePasswordRequestSchema,
  googleStartQuerySchema,
  IMAGE_MAX_BYTES,
  loginRequestSchema,
  okResponseSchema,
  passwordResetConfirmSchema,
  passwordResetRequestSchema,
  providersResponseSchema,
  resendVerificationRequestSchema,
  sessionResponseSchema,
  signupRequestSchema,
  signupResponseSchema,
  updateMeRequestSchema,
  userResponseSchema,
  verifyEmailRequestSchema,
} from "./auth.ts";
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

/** Sign-up, verification, sign-in with a password, sign-out and password reset. */
export const authEndpoints = {
  signup: endpoint({
    operationId: "signUp",
    method: "POST",
    path: "/api/v1/auth/signup",
    summary: "Create an account and send a verification email",
    tags,
    body: signupRequestSchema,
    success: { status: 201, schema: signupResponseSchema },
    errors: ["email_taken"],
  }),
  verifyEmail: endpoint({
    operationId: "verifyEmail",
    method: "POST",
    path: "/api/v1/auth/verify-email",
    summary: "Use an email verification link (sign-up or email change)",
    tags,
    body: verifyEmailRequestSchema,
    success: { status: 200, schema: userResponseSchema },
    errors: ["invalid_token", "email_taken"],
  }),
  resendVerification: endpoint({
    operationId: "resendVerification",
    method: "POST",
    path: "/api/v1/auth/resend-verification",
    summary: "Send a new verification link (always answers 202)",
    tags,
    body: resendVerificationRequestSchema,
    success: { status: 202, schema: okResponseSchema },
  }),
  login: endpoint({
    operationId: "logIn",
    method: "POST",
    path: "/api/v1/auth/login",
    summary: "Sign in with email and password (sets the session cookie)",
    tags,
    body: loginRequestSchema,
    success: { status: 200, schema: userResponseSchema },
    errors: ["invalid_credentials", "no_password", "account_suspended", "email_unverified"],
  }),
  logout: endpoint({
    operationId: "logOut",
    method: "POST",
    path: "/api/v1/auth/logout",
    summary: "Sign out (ends this session)",
    tags,
    success: { status: 204 },
  }),
  passwordReset: endpoint({
    operationId: "requestPasswordReset",
    method: "POST",
    path: "/api/v1/auth/password-reset",
    summary: "Email a password reset link (always answers 202)",
    tags,
    body: passwordResetRequestSchema,
    success: { status: 202, schema: okResponseSchema },
  }),
  passwordResetConfirm: endpoint({
    operationId: "confirmPasswordReset",
    method: "POST",
    path: "/api/v1/auth/password-reset/confirm",
    summary: "Set a new password with a reset link; ends every session of the user",
    tags,
    body: passwordResetConfirmSchema,
    success: { status: 200, schema: okResponseSchema },
    errors: ["invalid_token"],
  }),
  providers: endpoint({
    operationId: "listSignInProviders",
    method: "GET",
    path: "/api/v1/auth/providers",
    summary: "Which external sign-in providers are enabled",
    tags,
    success: { status: 200, schema: providersResponseSchema },
  }),
};

/** The session probe and the signed-in user's own profile. */
export const profileEndpoints = {
  session: endpoint({
    operationId: "getSession",
    method: "GET",
    path: "/api/v1/session",
    summary: "The signed-in user, or null for a visitor (200 either way; the web app's session probe)",
    tags: ["profile"],
    success: { status: 200, schema: sessionResponseSchema },
  }),
  me: endpoint({
    operationId: "getMe",
    method: "GET",
    path: "/api/v1/me",
    summary: "The signed-in user",
    tags: ["profile"],
    success: { status: 200, schema: userResponseSchema },
  }),
  updateMe: endpoint({
    operationId: "updateMe",
    method: "PATCH",
    path: "/api/v1/me",
    summary: "Change the signed-in user's name or phone",
    tags: ["profile"],
    body: updateMeRequestSchema,
    success: { status: 200, schema: userResponseSchema },
  }),
  changeEmail: endpoint({
    operationId: "changeEmail",
    method: "POST",
    path: "/api/v1/me/email",
    summary: "Ask to change the email address; the new address receives a verification link",
    tags: ["profile"],
    body: changeEmailRequestSchema,
    success: { status: 202, schema: okResponseSchema },
    errors: ["email_taken", "invalid_credentials", "mail_failed"],
  }),
  changePassword: endpoint({
    operationId: "changePassword",
    method: "POST",
    path: "/api/v1/me/password",
    summary: "Change the password (current password required); ends every session, including this one",
    tags: ["profile"],
    body: changePasswordRequestSchema,
    success: { status: 200, schema: okResponseSchema },
    errors: ["invalid_credentials", "no_password"],
  }),
};
