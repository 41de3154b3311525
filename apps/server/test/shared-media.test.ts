import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import S3rver from "@20minutes/s3rver";
import { RENDITION_WIDTHS } from "@diginoor/api/media";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipart, samplePng } from "./fixtures/accounts.ts";
import { s3Storage } from "../src/lib/storage/s3.ts";
import { newSignedInUser } from "./factories.ts";
import { createServerDatabase, type ServerDatabase } from "./pg-server.ts";
import { killAllServers, type ServerProcess, startServerProcess } from "./server-process.ts";
import { postgresPass } from "./passes.ts";

/**
 * Issue 26: two server processes on one PostgreSQL database share their media. A picture uploaded
 * through one is served, byte for byte and with the same ETag, by the other: with STORAGE=postgres
 * (the media module's table) and with STORAGE=s3 against s3rver, an S3-compatible server run in this
 * process (decision 162 says why it is a fair stand-in), reached only through the AWS SDK.
 */
const SESSION_SECRET = "shared-media-secret-shared-media-0001";
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "diginoor-shared-media-"));
let db: ServerDatabase;
let s3: S3rver;
let s3Endpoint: string;

beforeAll(async () => {
  db = await createServerDatabase();
  s3 = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory: path.join(tmp, "s3"),
    configureBuckets: [{ name: "diginoor-media", configs: [] }],
  });
  const { port } = await s3.run();
  s3Endpoint = `http://127.0.0.1:${port}`;
}, 60_000);
afterAll(async () => {
  killAllServers();
  await s3?.close();
  await db?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const start = (dataDir: string, env: Record<string, string>) =>
  startServerProcess(
    {
      DATABASE_URL: db.url,
      DATA_DIR: path.join(tmp, dataDir),
      SESSION_SECRET,
      SEED_ON_START: "0",
      LOG_LEVEL: "warn",
      WORKERS: "off",
      // Media need no chain; two servers starting their own local chain at once on one port raced to
      // deploy with the same key ("nonce too low") on a loaded machine.
      CHAIN_DISABLED: "1",
      // The rendition is checked as made, not the original sent while it is made on a loaded machine.
      RENDITION_WAIT_MS: "0",
      ...env,
    },
    { waitReady: true },
  );

async function uploadAvatar(server: ServerProcess, cookie: string): Promise<string> {
  const body = multipart(await samplePng(320, 200), "me.png", "image/png");
  const res = await fetch(`${server.base}/api/v1/me/avatar`, {
    method: "POST",
    headers: { ...body.headers, origin: server.base, cookie },
    body: body.payload,
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { user: { avatarUrl: string } }).user.avatarUrl;
}

async function get(server: ServerProcess, url: string) {
  const res = await fetch(`${server.base}${url}`);
  return { status: res.status, etag: res.headers.get("etag"), body: Buffer.from(await res.arrayBuffer()) };
}

// Child processes need a shared PostgreSQL server: the PostgreSQL pass runs it (passes.ts).
describe.runIf(postgresPass)("media shared by two servers", () => {
  for (const storage of ["postgres", "s3"] as const) {
    it(`STORAGE=${storage}: a picture uploaded through one server is served by the other`, async () => {
      const env: Record<string, string> =
        storage === "s3"
          ? {
              STORAGE: "s3",
              S3_BUCKET: "diginoor-media",
              S3_ENDPOINT: s3Endpoint,
              S3_FORCE_PATH_STYLE: "1",
              S3_ACCESS_KEY_ID: "S3RVER",
              S3_SECRET_ACCESS_KEY: "S3RVER",
              S3_PREFIX: "shared-test/",
            }
          : { STORAGE: "postgres" };
      // Separate data directories: nothing is shared through the disk.
      const [a, b] = await Promise.all([start(`${storage}-a`, env), start(`${storage}-b`, env)]);
      const { cookie } = await newSignedInUser(db.database);
      const avatarUrl = await uploadAvatar(a, cookie);
      expect(avatarUrl).toMatch(/^\/media\/avatars\/.+\.webp$/);

      const fromA = await get(a, avatarUrl);
      const fromB = await get(b, avatarUrl);
      expect(fromA.status).toBe(200);
      expect(fromB.status).toBe(200);
      expect(fromB.etag).toBe(fromA.etag);
      expect(fromB.body.equals(fromA.body)).toBe(true);
      // A rendition made on the other server from the stored picture.
      const width = RENDITION_WIDTHS[0];
      const rendition = await get(b, avatarUrl.replace("/media/", `/media/_r/${width}/`));
      expect(rendition.status).toBe(200);
      expect(rendition.body.subarray(8, 12).toString("latin1")).toBe("WEBP");

      // Where it lives: the table, or the bucket (under the prefix), never either server's disk.
      const key = avatarUrl.replace("/media/", "");
      if (storage === "postgres") {
        const rows = await db.database.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM media_objects WHERE key = $1",
          [key],
        );
        expect(rows[0]?.n).toBe(1);
      } else {
        const inBucket = fs.readdirSync(path.join(tmp, "s3"), { recursive: true }) as string[];
        expect(inBucket.some((f) => f.includes(path.basename(key)))).toBe(true);
        // The stand-in checks signatures: the same SDK with a wrong secret is refused.
        const forged = s3Storage({
          bucket: "diginoor-media",
          region: "us-east-1",
          endpoint: s3Endpoint,
          forcePathStyle: true,
          credentials: { accessKeyId: "S3RVER", secretAccessKey: "not-the-secret" },
        });
        await expect(forged.put("shared-test/forged.png", Buffer.from("x"), "image/png")).rejects.toThrow(
          /signature/i,
        );
      }
      for (const dir of [`${storage}-a`, `${storage}-b`]) {
        expect(fs.existsSync(path.join(tmp, dir, "media", "avatars"))).toBe(false);
      }
      console.log(
        `[shared-media] STORAGE=${storage}: uploaded ${fromA.body.length} B through server A, server B answered 200 with the same ${fromB.body.length} B and ETag ${fromB.etag}; B made the ${width} px rendition (${rendition.body.length} B)`,
      );
      await Promise.all([a.terminate(), b.terminate()]);
    }, 120_000);
  }
});
