import { createHash, randomBytes } from "node:crypto";

/** A fresh 256-bit random secret, base64url (43 characters). */
export function newSecret(): string {
  return randomBytes(32).toString("base64url");
}

/** What the database stores instead of a secret: its SHA-256, hex. */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}
