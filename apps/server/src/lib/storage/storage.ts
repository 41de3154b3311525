import { createHash } from "node:crypto";
import path from "node:path";

/** One stored object as it is served: its bytes, type and content hash (the ETag). */
export interface StoredObject {
  data: Buffer;
  contentType: string;
  /** SHA-256 of the bytes, hex. */
  sha256: string;
}

/**
 * Where uploaded and seeded media live (decision 162): the local disk, a table of the PostgreSQL
 * database, or S3-compatible object storage. Keys are relative paths made by the server, like
 * `avatars/<user>/<sha256>.webp`; an object under a key never changes (uploads are named by the hash
 * of their content), so every server can cache and serve it as immutable.
 */
export interface Storage {
  readonly kind: "local" | "postgres" | "s3";
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** The object under `key`, or null when there is none. */
  get(key: string): Promise<StoredObject | null>;
  /** Whether `key` holds an object (the seed writes only missing artwork). */
  has(key: string): Promise<boolean>;
  /** Public URL of a stored key (served by the app at /media/). */
  url(key: string): string;
  /** Deletes a key; deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
}

/** Keys are made by the server only; this refuses anything that could escape the storage root. */
export function assertSafeKey(key: string): void {
  if (!isSafeKey(key)) throw new Error(`Unsafe storage key: ${key}`);
}

export function isSafeKey(key: string): boolean {
  return /^[a-z0-9][a-z0-9/_-]*(\.[a-z0-9]+)?$/i.test(key) && !key.includes("..") && !key.includes("//");
}

export function sha256Hex(data: Buffer | string): string {
  return createHash("sha256").update(data).digest("hex");
}

const TYPES: Record<string, string> = {
  ".webp": "image/webp",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".svg": "image/svg+xml",
  ".gif": "image/gif",
  ".avif": "image/avif",
  ".mp4": "video/mp4",
  ".webm": "video/webm",
};

/** The media type of a key by its extension (the local disk keeps no type of its own). */
export function contentTypeOf(key: string): string {
  return TYPES[path.extname(key).toLowerCase()] ?? "application/octet-stream";
}

/** The public path of a key: /media/<key>. */
export const mediaUrl = (key: string) => {
  assertSafeKey(key);
  return `/media/${key}`;
};
