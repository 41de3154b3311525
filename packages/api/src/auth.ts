import { z } from "zod";

/**
 * Accounts API (sign-up, verification, sign-in, reset, profile). Shared by server and web.
 * User-facing messages use the spec's texts where they exist.
 */

export const authMessages = {
  confirmMismatch: "OMG..! Confirm Password Not Matched !",
  passwordTooShort: "Password must be at least 9 characters",
  invalidEmail: "Invalid email address",
  invalidPhone: "Phone must be in international format with country code, like +919876543210",
  invalidCredentials: "Invalid email or password",
  emailUnverified: "Please verify your email address",
  accountSuspended: "Your account has been suspended. Contact support.",
  invalidToken: "This link is invalid or has expired",
  emailTaken: "An account with this email already exists. Sign in or reset your password.",
  signupFailed: "Something went wrong. Please try again",
  verificationSent: "Verification Email Sent, Please check your Inbox",
  redirectingToLogin: "Redirecting to Login Page",
  verificationSendFailed: "Error Sending Verification Email",
  resetSent: "Password reset link sent email",
  userUpdated: "Horray..! User Updated Successfully!",
  passwordUpdated: "Wow..! Password Updated",
  loginRequired: "Please Login to Continue",
  wrongCurrentPassword: "Current password is wrong",
  imageType: "Only JPEG or PNG images are allowed",
  imageTooLarge: "Image must be at most 5 MB",
} as const;

export const PASSWORD_MIN = 9;
export const PASSWORD_MAX = 256;
export const NAME_MAX = 100;
export const EMAIL_MAX = 254;
/** Largest accepted avatar or cover upload, in bytes (5 MiB). */
export const IMAGE_MAX_BYTES = 5_242_880;

/** Email: trimmed, lower-cased (addresses are unique case-insensitively), at most 254 characters. */
export const emailSchema = z
  .string({ error: (iss) => (iss.input === undefined ? "Email is required" : authMessages.invalidEmail) })
  .trim()
  .toLowerCase()
  .min(1, "Email is required")
  .max(EMAIL_MAX, `Email must be at most ${EMAIL_MAX} characters`)
  .pipe(z.email(authMessages.invalidEmail))
  .meta({ format: "email" });

export const passwordSchema = z
  .string("Password is required")
  .min(PASSWORD_MIN, authMessages.passwordTooShort)
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`);

/**
 * Characters a display name must not contain, because they let one name pose as another:
 * control characters (C0, DEL and C1), invisible format characters (\p{Cf}: bidi overrides and
 * isolates, zero-width space, word joiner, BOM, soft hyphen, tag characters U+E0000–E007F, ...)
 * except the zero-width non-joiner and joiner that Indic scripts and emoji sequences need, line and
 * paragraph separators, lone surrogates, and the markup brackets < >.
 */
const FORBIDDEN_IN_NAME = /[\p{Cc}\p{Zl}\p{Zp}\p{Cs}<>]|(?![\u200C\u200D])\p{Cf}/u;
/** A name must show something: a letter, number, punctuation mark or symbol. */
const VISIBLE = /[\p{L}\p{N}\p{P}\p{S}]/u;

/** Why `name` (already trimmed) is not acceptable as a display name, or null when it is. */
export function displayNameProblem(name: string): string | null {
  if (FORBIDDEN_IN_NAME.test(name))
    return "Name must not contain control, invisible or text-direction characters, or < >";
  if (!VISIBLE.test(name)) return "Name must contain a visible letter, number or symbol";
  return null;
}

/**
 * Display name, for sign-up, profile edits and names from Google alike: trimmed, NFC-normalised,
 * 1–100 characters, and no characters that spoof another name (see displayNameProblem).
 */
export const nameSchema = z
  .string("Name is required")
  .trim()
  .transform((s) => s.normalize("NFC"))
  .pipe(
    z
      .string()
      .min(1, "Name is required")
      .max(NAME_MAX, `Name must be at most ${NAME_MAX} characters`)
      .superRefine((s, ctx) => {
        const problem = displayNameProblem(s);
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      }),
  );

/**
 * Phone in E.164 (`+` country code and number, 8–15 digits). Spaces, dashes, dots and brackets are
 * removed first; an empty string means "no phone" (null).
 */
export const phoneSchema = z
  .string(authMessages.invalidPhone)
  .max(32, authMessages.invalidPhone)
  .transform((s) => s.replace(/[\s\-().]/g, ""))
  .transform((s) => (s === "" ? null : s))
  .refine((s) => s === null || /^\+[1-9]\d{7,14}$/.test(s), authMessages.invalidPhone);

const tokenSchema = z
  .string("Token is required")
  .trim()
  .min(20, authMessages.invalidToken)
  .max(200, authMessages.invalidToken)
  .regex(/^[A-Za-z0-9_-]+$/, authMessages.invalidToken);

const confirmMatches = <T extends { password: string; confirmPassword: string }>(v: T) =>
  v.password === v.confirmPassword;
const confirmIssue = { message: authMessages.confirmMismatch, path: ["confirmPassword"] };

/** "studio": a production house's account in the studio console (decision 132). */
export const roleSchema = z.enum(["user", "admin", "studio"]);
export type Role = z.infer<typeof roleSchema>;

/** The signed-in user as the API returns it. */
export const userSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Public handle: the profile at /u/{handle}. */
  handle: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  emailVerified: z.boolean(),
  avatarUrl: z.string().nullable(),
  coverUrl: z.string().nullable(),
  role: roleSchema,
  /** ISO 8601 timestamp. */
  createdAt: z.string(),
});
export type User = z.infer<typeof userSchema>;

export const userResponseSchema = z.object({ user: userSchema });
export type UserResponse = z.infer<typeof userResponseSchema>;
/** GET /api/v1/session → 200 with the signed-in user, or `null` for a visitor (never 401). */
export const sessionResponseSchema = z.object({ user: userSchema.nullable() });
export type SessionResponse = z.infer<typeof sessionResponseSchema>;
export const okResponseSchema = z.object({ ok: z.literal(true) });
export type OkResponse = z.infer<typeof okResponseSchema>;

/** POST /api/v1/auth/signup → 201 UserResponse (and a verification email). */
export const signupRequestSchema = z
  .object({
    name: nameSchema,
    phone: phoneSchema.optional(),
    email: emailSchema,
    password: passwordSchema,
    confirmPassword: z.string("Confirm Password is required").max(PASSWORD_MAX),
  })
  .strict()
  .refine(confirmMatches, confirmIssue);
export type SignupRequest = z.input<typeof signupRequestSchema>;

/**
 * Response of POST /api/v1/auth/signup. `verificationEmailSent: false` means the account exists but
 * the mail could not be sent: show 'Error Sending Verification Email' (resend is possible).
 */
export const signupResponseSchema = z.object({ user: userSchema, verificationEmailSent: z.boolean() });
export type SignupResponse = z.infer<typeof signupResponseSchema>;

/** POST /api/v1/auth/verify-email → 200 UserResponse; 400 invalid_token. */
export const verifyEmailRequestSchema = z.object({ token: tokenSchema }).strict();
export type VerifyEmailRequest = z.input<typeof verifyEmailRequestSchema>;

/** POST /api/v1/auth/resend-verification → 202 OkResponse (always). */
export const resendVerificationRequestSchema = z.object({ email: emailSchema }).strict();
export type ResendVerificationRequest = z.input<typeof resendVerificationRequestSchema>;

/** POST /api/v1/auth/login → 200 UserResponse + session cookie. */
export const loginRequestSchema = z
  .object({
    email: emailSchema,
    password: z.string("Password is required").min(1, "Password is required").max(PASSWORD_MAX),
  })
  .strict();
export type LoginRequest = z.input<typeof loginRequestSchema>;

/** POST /api/v1/auth/password-reset → 202 OkResponse (always). */
export const passwordResetRequestSchema = z.object({ email: emailSchema }).strict();
export type PasswordResetRequest = z.input<typeof passwordResetRequestSchema>;

/** POST /api/v1/auth/password-reset/confirm → 200 OkResponse; ends every session of the user. */
export const passwordResetConfirmSchema = z
  .object({
    token: tokenSchema,
    password: passwordSchema,
    confirmPassword: z.string("Confirm Password is required").max(PASSWORD_MAX),
  })
  .strict()
  .refine(confirmMatches, confirmIssue);
export type PasswordResetConfirm = z.input<typeof passwordResetConfirmSchema>;

/** GET /api/v1/auth/providers */
export const providersResponseSchema = z.object({ google: z.boolean() });
export type ProvidersResponse = z.infer<typeof providersResponseSchema>;

/** GET /api/v1/auth/google/start?next=/path */
export const googleStartQuerySchema = z.object({ next: z.string().max(2000).optional() });

/** PATCH /api/v1/me → 200 UserResponse. `phone: ""` or null removes the phone. */
export const updateMeRequestSchema = z
  .object({
    name: nameSchema.optional(),
    phone: phoneSchema.nullable().optional(),
  })
  .strict();
export type UpdateMeRequest = z.input<typeof updateMeRequestSchema>;

/** POST /api/v1/me/email → 202 OkResponse; the new address gets a verification link. */
export const changeEmailRequestSchema = z
  .object({
    email: emailSchema,
    currentPassword: z
      .string("Current password is required")
      .min(1, "Current password is required")
      .max(PASSWORD_MAX),
  })
  .strict();
export type ChangeEmailRequest = z.input<typeof changeEmailRequestSchema>;

/** POST /api/v1/me/password → 200 OkResponse; ends ALL sessions (sign in again). */
export const changePasswordRequestSchema = z
  .object({
    currentPassword: z
      .string("Current password is required")
      .min(1, "Current password is required")
      .max(PASSWORD_MAX),
    password: passwordSchema,
    confirmPassword: z.string("Confirm Password is required").max(PASSWORD_MAX),
  })
  .strict()
  .refine(confirmMatches, confirmIssue);
export type ChangePasswordRequest = z.input<typeof changePasswordRequestSchema>;

/** Dev mailbox JSON (GET /dev/mailbox/api; off in production). */
export const devMailSchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  links: z.array(z.string()),
  /** Extra headers the mail was sent with (e.g. List-Unsubscribe), by name. */
  headers: z.record(z.string(), z.string()),
  createdAt: z.string(),
});
export type DevMail = z.infer<typeof devMailSchema>;
export const devMailboxResponseSchema = z.object({ messages: z.array(devMailSchema) });
export type DevMailboxResponse = z.infer<typeof devMailboxResponseSchema>;
