import fs from "node:fs/promises";
import path from "node:path";
import { type Storage, assertSafeKey } from "./storage.ts";

/**
 * Local-disk storage under `root` (DATA_DIR/media by default), served by the app at `/media/`.
 * Files are written to a temporary name and renamed, so readers never see half a file.
 */
export function localStorage(root: string, publicPrefix = "/media"): Storage {
  return {
    async put(key, data) {
      assertSafeKey(key);
      const file = path.join(root, key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
      await fs.writeFile(tmp, data, { mode: 0o644 });
      await fs.rename(tmp, file);
    },
    url(key) {
      assertSafeKey(key);
      return `${publicPrefix}/${key}`;
    },
    async delete(key) {
      assertSafeKey(key);
      await fs.rm(path.join(root, key), { force: true });
    },
  };
}
