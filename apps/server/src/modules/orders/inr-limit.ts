// Rupee purchases above a yearly total need verified KYC (issue 25 point 3, decision 175).
import { kycMessages } from "@diginoor/api/kyc";
import type { Query } from "../../db/query.ts";
import { AppError } from "../../http/errors.ts";
import type { KycService } from "../kyc/service.ts";
import * as repo from "./repo.ts";

/** What the check needs: the KYC state (read in the caller's transaction) and the limit. */
export interface InrLimit {
  kyc: Pick<KycService, "stateOf">;
  limitPaise: bigint;
}

/** India's financial year (1 April, India time, UTC+5:30) that `now` falls in: its first instant. */
export function financialYearStart(now: Date): Date {
  const ist = new Date(now.getTime() + 330 * 60_000);
  const year = ist.getUTCMonth() >= 3 ? ist.getUTCFullYear() : ist.getUTCFullYear() - 1;
  return new Date(Date.UTC(year, 3, 1) - 330 * 60_000);
}

/**
 * Refuses (403 `kyc_required`) a new rupee order of `paise` that would take the user's rupee orders of
 * this financial year (open or paid) above the limit, unless their identity is verified. Runs in the
 * transaction that inserts the order, under the fan's one rupee-limit lock (a transaction advisory lock
 * held until that transaction ends) whatever the order's kind (NFT, resale, tickets): two orders of one
 * fan never sum the year's total at the same time, so together they cannot pass a limit each alone is
 * under (issue 34 point 7). It is the last lock an order's transaction takes before its insert.
 */
export async function checkInrLimit(
  q: Query,
  limit: InrLimit | undefined,
  userId: string,
  paise: bigint,
  now: Date,
): Promise<void> {
  if (!limit) return;
  await q("SELECT pg_advisory_xact_lock(hashtext('orders:inr-limit:' || $1))", [userId]);
  const total = (await repo.inrPaiseSince(q, userId, financialYearStart(now))) + paise;
  if (total <= limit.limitPaise) return;
  const state = await limit.kyc.stateOf(userId, q);
  if (state !== "verified")
    throw new AppError("kyc_required", kycMessages.inrLimit(limit.limitPaise), {
      state,
      reason: "inr_yearly_limit",
      limitPaise: limit.limitPaise.toString(),
    });
}
