import { type Algorithm, hash, verify } from "@node-rs/argon2";
import { createLimiter } from "../../lib/limiter.ts";

/**
 * argon2id at the OWASP Password Storage Cheat Sheet minimum: m = 19456 KiB (19 MiB), t = 2, p = 1.
 * The PHC string stores the parameters, so they can be raised later without breaking old hashes.
 */
export const ARGON2_OPTIONS = {
  algorithm: 2 as Algorithm, // Algorithm.Argon2id (a const enum, not importable under isolatedModules)
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

type Run = <T>(task: () => Promise<T>) => Promise<T>;
const unbounded: Run = (task) => task();
let run: Run = unbounded;

/**
 * Bounds how many hashes and verifications run at once in this process (0 = unbounded). argon2
 * runs on libuv's worker pool, which file reads share: 40 sign-ins at once would hold every pool
 * thread and both cores. Process-wide, like the pool it protects; set once at start-up.
 */
export function limitHashing(concurrency: number): void {
  run = concurrency > 0 ? createLimiter(concurrency) : unbounded;
}

export function hashPassword(password: string): Promise<string> {
  return run(() => hash(password, ARGON2_OPTIONS));
}

let dummyHash: Promise<string> | undefined;

/**
 * Verifies a password against a stored hash. With no hash (unknown email, Google-only account) it
 * still verifies against a dummy hash of the same cost, so the response time does not reveal
 * whether the account exists.
 */
export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  if (!stored) {
    dummyHash ??= hashPassword("dummy-password-for-constant-time-checks");
    const dummy = await dummyHash;
    await run(() => verify(dummy, password)).catch(() => false);
    return false;
  }
  try {
    return await run(() => verify(stored, password));
  } catch {
    return false;
  }
}
