import type { RateLimitRule } from "../../lib/rate-limit.ts";

/** Rate limits of the accounts (sliding windows shared in PostgreSQL, see lib/rate-limit.ts). */
export const limits = {
  loginPerIp: { name: "login:ip", limit: 20, windowSeconds: 60 },
  loginPerAccount: { name: "login:account", limit: 10, windowSeconds: 60 },
  signupPerIp: { name: "signup:ip", limit: 10, windowSeconds: 600 },
  resetPerIp: { name: "reset:ip", limit: 10, windowSeconds: 600 },
  resetPerEmail: { name: "reset:email", limit: 3, windowSeconds: 600 },
  resendPerIp: { name: "resend:ip", limit: 10, windowSeconds: 600 },
  resendPerEmail: { name: "resend:email", limit: 3, windowSeconds: 600 },
  verifyPerIp: { name: "verify:ip", limit: 30, windowSeconds: 600 },
  resetConfirmPerIp: { name: "reset-confirm:ip", limit: 30, windowSeconds: 600 },
  passwordCheckPerUser: { name: "password-check:user", limit: 10, windowSeconds: 600 },
  emailChangePerUser: { name: "email-change:user", limit: 5, windowSeconds: 3600 },
  uploadPerUser: { name: "upload:user", limit: 30, windowSeconds: 600 },
  googlePerIp: { name: "google:ip", limit: 30, windowSeconds: 600 },
} as const satisfies Record<string, RateLimitRule>;
