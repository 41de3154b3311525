import fs from "node:fs/promises";
import path from "node:path";
import { type Storage, assertSafeKey, contentTypeOf, mediaUrl, sha256Hex } from "./storage.ts";

/**
 * Local-disk storage under `root` (DATA_DIR/media by default): the embedded default, for one
 * machine. Files are written to a temporary name and renamed, so readers never see half a file.
 */
export function localStorage(root: string): Storage & { root: string } {
  const file = (key: string) => {
    assertSafeKey(key);
    return path.join(root, key);
  };
  // Content hashes by key, kept while the file's size and mtime are unchanged.
  const hashes = new Map<string, { mtimeMs: number; size: number; sha256: string }>();
  return {
    kind: "local",
    root,
    async put(key, data) {
      const target = file(key);
      await fs.mkdir(path.dirname(target), { recursive: true });
      const tmp = `${target}.${process.pid}.${Date.now()}.tmp`;
      await fs.writeFile(tmp, data, { mode: 0o644 });
      await fs.rename(tmp, target);
    },
    async get(key) {
      const target = file(key);
      let data: Buffer;
      let stat: import("node:fs").Stats;
      try {
        [data, stat] = await Promise.all([fs.readFile(target), fs.stat(target)]);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === "ENOENT" || code === "EISDIR" || code === "ENOTDIR") return null;
        throw err;
      }
      if (!stat.isFile()) return null;
      const known = hashes.get(key);
      let sha256 = known?.mtimeMs === stat.mtimeMs && known.size === stat.size ? known.sha256 : undefined;
      if (!sha256) {
        sha256 = sha256Hex(data);
        hashes.set(key, { mtimeMs: stat.mtimeMs, size: stat.size, sha256 });
      }
      return { data, contentType: contentTypeOf(key), sha256 };
    },
    async has(key) {
      try {
        return (await fs.stat(file(key))).isFile();
      } catch {
        return false;
      }
    },
    url: mediaUrl,
    async delete(key) {
      await fs.rm(file(key), { force: true });
      hashes.delete(key);
    },
  };
}

/** Every file under a local media directory, as storage keys (for `npm run media:migrate`). */
export async function* localKeys(root: string, dir = ""): AsyncGenerator<string> {
  let entries: import("node:fs").Dirent[];
  try {
    entries = await fs.readdir(path.join(root, dir), { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
    throw err;
  }
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const key = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory()) yield* localKeys(root, key);
    else if (e.isFile() && !e.name.endsWith(".tmp")) yield key;
  }
}
