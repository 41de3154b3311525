import type { Config } from "../../config.ts";
import type { Database } from "../../db/client.ts";
import { localStorage } from "../../lib/storage/local.ts";
import { s3Storage } from "../../lib/storage/s3.ts";
import type { Storage } from "../../lib/storage/storage.ts";
import { withReadCache } from "../../lib/storage/cached.ts";
import { postgresStorage } from "./store.ts";

/** The media storage STORAGE names (decision 162), with recently read objects kept in memory. */
export function createStorage(
  config: Pick<
    Config,
    | "STORAGE"
    | "paths"
    | "S3_BUCKET"
    | "S3_REGION"
    | "S3_ENDPOINT"
    | "S3_ACCESS_KEY_ID"
    | "S3_SECRET_ACCESS_KEY"
    | "S3_FORCE_PATH_STYLE"
    | "S3_PREFIX"
  >,
  database: Database,
): Storage {
  const storage = openStorage(config, database);
  return storage.kind === "local" ? storage : withReadCache(storage);
}

/** The storage STORAGE names, without a cache (`npm run media:migrate` writes through it). */
export function openStorage(config: Parameters<typeof createStorage>[0], database: Database): Storage {
  switch (config.STORAGE) {
    case "local":
      return localStorage(config.paths.media);
    case "postgres":
      return postgresStorage(database);
    case "s3":
      return s3Storage({
        bucket: config.S3_BUCKET as string,
        region: config.S3_REGION,
        endpoint: config.S3_ENDPOINT,
        forcePathStyle: config.S3_FORCE_PATH_STYLE,
        credentials:
          config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
            ? { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY }
            : undefined,
        prefix: config.S3_PREFIX,
      });
  }
}
