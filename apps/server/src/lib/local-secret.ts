import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * A random secret kept in `dir/<name>` (created once with 32 random bytes, readable by this user
 * only), for keys that must survive restarts on a machine without SESSION_SECRET (development,
 * staging): never derived from a constant anyone can read in the source. Concurrent first starts
 * agree: the file is created exclusively and the loser reads the winner's.
 */
export function localSecret(dir: string, name: string): Buffer {
  if (!/^[a-z0-9-]{1,64}$/.test(name)) throw new Error(`localSecret: bad name ${name}`);
  const file = path.join(dir, name);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    const fresh = randomBytes(32);
    fs.writeFileSync(file, fresh.toString("hex"), { flag: "wx", mode: 0o600 });
    return fresh;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  const text = fs.readFileSync(file, "utf8").trim();
  if (!/^[0-9a-f]{64}$/.test(text))
    throw new Error(`${file} is not a 32-byte hex secret; delete it to make a new one`);
  return Buffer.from(text, "hex");
}
