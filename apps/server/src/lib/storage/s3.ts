import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { type Storage, assertSafeKey, mediaUrl, sha256Hex } from "./storage.ts";

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** An S3-compatible endpoint (MinIO, R2, a local server); AWS's own when absent. */
  endpoint?: string;
  /** Bucket in the path (http://host/bucket/key) rather than the host name: most S3-compatible servers. */
  forcePathStyle?: boolean;
  /** Without these the SDK's default chain is used (environment, instance role, ...). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Prepended to every key (several deployments in one bucket). */
  prefix?: string;
  /** Milliseconds one request may take (default 10 s). */
  timeoutMs?: number;
}

/** Whether an S3 error means "no such object" (GET answers NoSuchKey, HEAD a bare 404). */
function notFound(err: unknown): boolean {
  return (
    err instanceof S3ServiceException &&
    (err.name === "NoSuchKey" || err.name === "NotFound" || err.$metadata.httpStatusCode === 404)
  );
}

/**
 * S3-compatible object storage through the official AWS SDK v3. Objects carry their SHA-256 as
 * metadata (S3's own ETag is an MD5, or not a hash at all for multipart uploads).
 */
export function s3Storage(opts: S3StorageOptions): Storage & { client: S3Client; bucket: string } {
  const client = new S3Client({
    region: opts.region,
    endpoint: opts.endpoint,
    forcePathStyle: opts.forcePathStyle,
    credentials: opts.credentials,
    maxAttempts: 3,
    // Checksums only where S3 requires them: S3-compatible services (and older ones) do not all
    // understand the SDK's default trailing checksums, and their signatures then fail to match.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    requestHandler: { requestTimeout: opts.timeoutMs ?? 10_000, connectionTimeout: opts.timeoutMs ?? 10_000 },
  });
  const objectKey = (key: string) => {
    assertSafeKey(key);
    return `${opts.prefix ?? ""}${key}`;
  };
  const Bucket = opts.bucket;
  return {
    kind: "s3",
    client,
    bucket: Bucket,
    async put(key, data, contentType) {
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: objectKey(key),
          Body: data,
          ContentType: contentType,
          CacheControl: "public, max-age=31536000, immutable",
          Metadata: { sha256: sha256Hex(data) },
        }),
      );
    },
    async get(key) {
      try {
        const out = await client.send(new GetObjectCommand({ Bucket, Key: objectKey(key) }));
        const data = Buffer.from((await out.Body?.transformToByteArray()) ?? []);
        const sha256 = out.Metadata?.sha256 ?? sha256Hex(data);
        return { data, contentType: out.ContentType ?? "application/octet-stream", sha256 };
      } catch (err) {
        if (notFound(err)) return null;
        throw err;
      }
    },
    async has(key) {
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) }));
        return true;
      } catch (err) {
        if (notFound(err)) return false;
        throw err;
      }
    },
    url: mediaUrl,
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
    },
  };
}
