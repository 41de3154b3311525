import { createHmac, timingSafeEqual } from "node:crypto";
import type { z } from "zod";
import { AppError } from "../http/errors.ts";

/**
 * The sandbox providers' webhook signature (payments, decision 141; KYC, decision 175):
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t." + body>`, checked over the exact bytes received.
 */
export function signTimestamped(secret: string, body: string | Buffer, timestampSec: number): string {
  const mac = createHmac("sha256", secret).update(`${timestampSec}.`).update(body).digest("hex");
  return `t=${timestampSec},v1=${mac}`;
}

/**
 * Why a signed body is refused (no header, no timestamp, outside the replay window, bad signature),
 * or null when its signature and timestamp are good.
 */
export function timestampedSignatureProblem(
  secret: string,
  raw: Buffer,
  header: string | string[] | undefined,
  nowMs: number,
  windowSeconds: number,
): string | null {
  if (typeof header !== "string") return "no signature";
  const parts = new Map<string, string[]>();
  for (const kv of header.split(",")) {
    const at = kv.indexOf("=");
    if (at <= 0) continue;
    const k = kv.slice(0, at).trim();
    parts.set(k, [...(parts.get(k) ?? []), kv.slice(at + 1).trim()]);
  }
  const t = Number(parts.get("t")?.[0]);
  if (!Number.isInteger(t)) return "no timestamp";
  if (Math.abs(nowMs / 1000 - t) > windowSeconds) return "timestamp outside the replay window";
  const expected = Buffer.from(signTimestamped(secret, raw, t).split("v1=")[1] ?? "", "hex");
  const ok = (parts.get("v1") ?? []).some((v) => {
    const given = Buffer.from(v, "hex");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return ok ? null : "bad signature";
}

/**
 * A sandbox webhook's event: its signature and timestamp checked (`timestampedSignatureProblem`), then
 * its JSON read with `schema`. Any failure is a 400 `Webhook refused: …` that changes nothing.
 */
export function readSignedEvent<T>(
  o: { secret: string; windowSeconds: number; what: string },
  raw: Buffer,
  header: string | string[] | undefined,
  nowMs: number,
  schema: z.ZodType<T>,
): T {
  const refuse = (why: string) => new AppError("bad_request", `Webhook refused: ${why}`);
  const problem = timestampedSignatureProblem(o.secret, raw, header, nowMs, o.windowSeconds);
  if (problem) throw refuse(problem);
  let json: unknown;
  try {
    json = JSON.parse(raw.toString("utf8"));
  } catch {
    throw refuse("not JSON");
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw refuse(`not ${o.what}`);
  return parsed.data;
}
