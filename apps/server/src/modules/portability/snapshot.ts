// The IPFS snapshot of every token (issue 25 point 1, decision 173): media first (each file's own CID),
// then each token's ERC-721 metadata naming its media by those CIDs, then one UnixFS directory
//   <root>/media/<mediaCid><ext>    <root>/metadata/<tokenId>    <root>/metadata/contract
// (the last the collection's ERC-7572 metadata, what contractURI() = baseURI ++ "contract" names), whose root CID the collectible's base URI can name (ipfs://<root>/metadata/ + tokenId = tokenURI).
// CIDs come from ipfs-unixfs-importer with the options of `ipfs add --cid-version 1` (kubo's
// 256 KiB chunks, balanced layout of 174 links, raw leaves, CIDv1), so a node adding the same files
// gets the same CIDs; the CAR (@ipld/car) holds every block, ready for `ipfs dag import` or a pinning service.
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { CollectionMetadata, TokenMetadata } from "@diginoor/api/chain";
// The IPFS libraries are loaded when a snapshot is made (not at every start of the server).
import type { ImporterOptions } from "ipfs-unixfs-importer";
import type { CID } from "multiformats/cid";

/** `ipfs add --cid-version 1`: the 2015 UnixFS profile (256 KiB chunks, 174 links) with CIDv1 and raw leaves. */
export const IPFS_ADD_OPTIONS: ImporterOptions = {
  profile: "unixfs-v0-2015",
  cidVersion: 1,
  rawLeaves: true,
};

/** Blocks in the order the importer wrote them (a CAR lists each once). */
class BlockList {
  readonly blocks = new Map<string, { cid: CID; bytes: Uint8Array }>();
  put(cid: CID, bytes: Uint8Array): CID {
    this.blocks.set(cid.toString(), { cid, bytes });
    return cid;
  }
}

/** One medium a token's metadata names: its bytes when we host it, else null (kept as its URL). */
export type LoadMedia = (url: string) => Promise<{ bytes: Uint8Array; ext: string } | null>;

export interface SnapshotFile {
  /** Path under the root: `media/<cid><ext>` or `metadata/<tokenId>`. */
  path: string;
  cid: CID;
  bytes: Uint8Array;
}

export interface Snapshot {
  root: CID;
  files: SnapshotFile[];
  /** The snapshot's metadata documents by token id (what `metadata/<tokenId>` holds). */
  metadata: Map<string, TokenMetadata>;
  /** The collection's metadata (what `metadata/contract` holds), when given. */
  collection?: CollectionMetadata;
  /** Media URLs we do not host (another site's): left in the metadata as they are, not in the CAR. */
  external: string[];
  blocks: { cid: CID; bytes: Uint8Array }[];
}

async function importOne(store: BlockList, content: Uint8Array): Promise<CID> {
  let cid: CID | undefined;
  const { importer } = await import("ipfs-unixfs-importer");
  for await (const entry of importer([{ content }], store, IPFS_ADD_OPTIONS)) cid = entry.cid;
  if (!cid) throw new Error("the importer yielded nothing");
  return cid;
}

/** The JSON of a metadata document as the file holds it (UTF-8, no trailing newline). */
export function metadataBytes(doc: TokenMetadata | CollectionMetadata): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(doc));
}

/**
 * Builds the snapshot of `tokens` (token id → the metadata our API serves). Each medium is read
 * once (`loadMedia`), however many tokens name it.
 */
export async function buildSnapshot(
  tokens: { tokenId: string; metadata: TokenMetadata }[],
  loadMedia: LoadMedia,
  collection?: CollectionMetadata,
): Promise<Snapshot> {
  const store = new BlockList();
  const media = new Map<string, { ref: string; file?: SnapshotFile }>();
  const external: string[] = [];
  // 1. Media: each file's CID on its own (the same CID it has inside the directory).
  const named = tokens.map((t) => [t.metadata.image, t.metadata.animation_url]);
  if (collection) named.push([collection.image]);
  for (const urls of named) {
    for (const url of urls) {
      if (!url || media.has(url)) continue;
      const loaded = await loadMedia(url);
      if (!loaded) {
        media.set(url, { ref: url });
        external.push(url);
        continue;
      }
      const cid = await importOne(store, loaded.bytes);
      media.set(url, {
        ref: `ipfs://${cid.toString()}`,
        file: { path: `media/${cid.toString()}${loaded.ext}`, cid, bytes: loaded.bytes },
      });
    }
  }
  // 2. Metadata naming the media by their CIDs (ipfs://<cid>: valid on any gateway, pinned with the root).
  const documents = new Map<string, TokenMetadata>();
  const entries: { path: string; content: Uint8Array }[] = [];
  for (const { tokenId, metadata } of tokens) {
    const doc: TokenMetadata = {
      ...metadata,
      image: media.get(metadata.image)?.ref ?? metadata.image,
      ...(metadata.animation_url
        ? { animation_url: media.get(metadata.animation_url)?.ref ?? metadata.animation_url }
        : {}),
    };
    documents.set(tokenId, doc);
    entries.push({ path: `metadata/${tokenId}`, content: metadataBytes(doc) });
  }
  const collectionDoc = collection && {
    ...collection,
    image: media.get(collection.image)?.ref ?? collection.image,
  };
  if (collectionDoc) entries.push({ path: "metadata/contract", content: metadataBytes(collectionDoc) });
  const mediaFiles = [...media.values()].flatMap((m) => (m.file ? [m.file] : []));
  const unique = new Map(mediaFiles.map((f) => [f.path, f]));
  for (const f of unique.values()) entries.push({ path: f.path, content: f.bytes });
  // 3. The directory, its entries in name order (as `ipfs add -r` reads a folder).
  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const cids = new Map<string, CID>();
  let root: CID | undefined;
  const { importer } = await import("ipfs-unixfs-importer");
  for await (const entry of importer(entries, store, { ...IPFS_ADD_OPTIONS, wrapWithDirectory: true })) {
    cids.set(entry.path ?? "", entry.cid);
    if (entry.path === "" || entry.path === undefined) root = entry.cid;
  }
  if (!root) throw new Error("the importer yielded no root directory");
  const files = entries.map((e) => {
    const cid = cids.get(e.path);
    if (!cid) throw new Error(`the importer yielded no CID for ${e.path}`);
    return { path: e.path, cid, bytes: e.content };
  });
  return {
    root,
    files,
    metadata: documents,
    ...(collectionDoc ? { collection: collectionDoc } : {}),
    external,
    blocks: [...store.blocks.values()],
  };
}

/** Writes the snapshot's blocks as a CARv1 file whose one root is the directory; returns its size. */
export async function writeCar(snapshot: Snapshot, out: string): Promise<number> {
  fs.mkdirSync(path.dirname(path.resolve(out)), { recursive: true });
  const { CarWriter } = await import("@ipld/car");
  const { writer, out: bytes } = CarWriter.create([snapshot.root]);
  const written = pipeline(Readable.from(bytes), fs.createWriteStream(out));
  for (const b of snapshot.blocks) await writer.put(b);
  await writer.close();
  await written;
  return fs.statSync(out).size;
}
