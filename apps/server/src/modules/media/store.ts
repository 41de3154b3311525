import type { Database } from "../../db/client.ts";
import { type Storage, assertSafeKey, mediaUrl, sha256Hex } from "../../lib/storage/storage.ts";

/**
 * Media in the media module's table (migration 0110): one row per key with its bytes and their
 * SHA-256. Writing a key again with the same bytes changes nothing; the row is replaced otherwise
 * (the seed's artwork after a renderer change).
 */
export function postgresStorage(database: Database): Storage {
  return {
    kind: "postgres",
    async put(key, data, contentType) {
      assertSafeKey(key);
      const sha256 = sha256Hex(data);
      await database.query(
        `INSERT INTO media_objects (key, sha256, content_type, size, data) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (key) DO UPDATE SET sha256 = excluded.sha256, content_type = excluded.content_type,
           size = excluded.size, data = excluded.data, created_at = now()
         WHERE media_objects.sha256 <> excluded.sha256`,
        [key, sha256, contentType, data.length, data],
      );
    },
    async get(key) {
      assertSafeKey(key);
      const [row] = await database.query<{ sha256: string; content_type: string; data: Uint8Array }>(
        "SELECT sha256, content_type, data FROM media_objects WHERE key = $1",
        [key],
        { name: "media_get" },
      );
      if (!row) return null;
      const data = Buffer.isBuffer(row.data)
        ? row.data
        : Buffer.from(row.data.buffer, row.data.byteOffset, row.data.byteLength);
      return { data, contentType: row.content_type, sha256: row.sha256 };
    },
    async has(key) {
      assertSafeKey(key);
      const rows = await database.query("SELECT 1 FROM media_objects WHERE key = $1", [key], {
        name: "media_has",
      });
      return rows.length > 0;
    },
    url: mediaUrl,
    async delete(key) {
      assertSafeKey(key);
      await database.query("DELETE FROM media_objects WHERE key = $1", [key]);
    },
  };
}
