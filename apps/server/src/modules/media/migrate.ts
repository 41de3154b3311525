import fs from "node:fs/promises";
import path from "node:path";
import { localKeys } from "../../lib/storage/local.ts";
import { type Storage, contentTypeOf, isSafeKey } from "../../lib/storage/storage.ts";

export interface MigrateReport {
  /** Files copied into the storage. */
  copied: number;
  /** Files the storage already held (a second run copies nothing). */
  present: number;
  /** Files whose names are not storage keys (left where they are). */
  skipped: string[];
  bytes: number;
}

/**
 * Copies every file under a local media directory into `storage` under the same key (so every URL
 * already in the database keeps working). Idempotent: keys the storage holds are left alone.
 */
export async function migrateLocalMedia(
  root: string,
  storage: Storage,
  onProgress?: (key: string) => void,
): Promise<MigrateReport> {
  const report: MigrateReport = { copied: 0, present: 0, skipped: [], bytes: 0 };
  for await (const key of localKeys(root)) {
    if (!isSafeKey(key)) {
      report.skipped.push(key);
      continue;
    }
    if (await storage.has(key)) {
      report.present++;
      continue;
    }
    const data = await fs.readFile(path.join(root, key));
    await storage.put(key, data, contentTypeOf(key));
    report.copied++;
    report.bytes += data.length;
    onProgress?.(key);
  }
  return report;
}
