import type { CarReader } from "@ipld/car";
import type { exporter } from "ipfs-unixfs-exporter";
import { CID } from "multiformats/cid";

/**
 * A CAR's blocks as the UnixFS exporter reads them (its `get` yields a block's bytes). The exporter has
 * its own copy of multiformats, so CIDs cross as strings.
 */
export function carStore(reader: CarReader) {
  return {
    async *get(cid: { toString(): string }) {
      const block = await reader.get(CID.parse(cid.toString()));
      if (!block) throw new Error(`block ${cid} is not in the CAR`);
      yield block.bytes;
    },
  };
}

/** A file's bytes read back through the DAG (the exporter joins its leaves). */
export async function readAll(entry: Awaited<ReturnType<typeof exporter>>): Promise<Buffer> {
  if (entry.type !== "file" && entry.type !== "raw") throw new Error(`${entry.path} is a ${entry.type}`);
  const parts: Uint8Array[] = [];
  for await (const p of entry.content()) parts.push(p as Uint8Array);
  return Buffer.concat(parts);
}
