// Know your customer (issue 25 point 3, decision 175): identity verified by a provider on its hosted
// page (the sandbox outside production), its result told by a signed webhook and applied once. We
// keep the provider's references and the result, never a document. Other modules ask this one
// whether a person is verified before money goes out (payouts) or above the yearly rupee limit.
import type { IncomingHttpHeaders } from "node:http";
import { type KycState, type KycStatus, kycMessages } from "@diginoor/api/kyc";
import type { Database } from "../../db/client.ts";
import { type Query, queryOf } from "../../db/query.ts";
import { AppError } from "../../http/errors.ts";
import type { PersonalSubject } from "../../lib/personal-data.ts";
import { createSandboxOutbox, type SandboxPost, type SignedDelivery } from "../../lib/webhook-outbox.ts";
import type { Clock } from "../../platform/clock.ts";
import { withTransaction } from "../../platform/tx.ts";
import type { KycProvider } from "./providers.ts";
import * as repo from "./repo.ts";
import { kycSandboxPage, sandboxKycDelivery, sandboxKycProvider } from "./sandbox.ts";

export type { KycProvider } from "./providers.ts";

/** Where the applicant comes back to: the Verify identity section of Edit Profile. */
export const KYC_RETURN_PATH = "/profile/edit_profile";

export interface KycDeps {
  database: Database;
  clock: Clock;
  publicUrl: string;
  /** The sandbox provider (never in production): its webhook secret. */
  sandbox?: { secret: string };
  /** Other providers, by name (none is built yet besides the sandbox). */
  providers?: Record<string, KycProvider>;
  /** Rupee purchases in a financial year above this need verified KYC (KYC_INR_YEARLY_LIMIT_PAISE). */
  inrYearlyLimitPaise: bigint;
  log?: (level: "info" | "warn", msg: string, extra?: object) => void;
}

/** A user's state from their attempts (newest first): verified once any attempt was, else the newest's. */
export function stateFrom(checks: repo.KycCheckRow[]): KycState {
  if (checks.some((c) => c.state === "verified")) return "verified";
  return checks[0]?.state ?? "not_started";
}

export function createKycService(deps: KycDeps) {
  const { database, clock } = deps;
  const q = queryOf(database);
  const log = deps.log ?? (() => {});
  const publicUrl = deps.publicUrl.replace(/\/$/, "");
  const providers: Record<string, KycProvider> = {
    ...deps.providers,
    ...(deps.sandbox ? { sandbox: sandboxKycProvider({ secret: deps.sandbox.secret, publicUrl }) } : {}),
  };
  /** The provider new attempts go to: a configured real one first, else the sandbox. */
  const current = (): KycProvider => {
    const real = Object.values(deps.providers ?? {})[0];
    const p = real ?? providers.sandbox;
    if (!p) throw new AppError("unavailable", "Identity verification is not available on this server yet");
    return p;
  };
  let outbox = createSandboxOutbox(
    async () => {
      throw new Error("the KYC sandbox's webhook route is not registered in this process");
    },
    (err) => log("warn", "kyc sandbox: webhook delivery failed", { err: String(err) }),
  );

  async function stateOf(userId: string, on: Query = q): Promise<KycState> {
    return stateFrom(await repo.checksOf(on, userId));
  }

  return {
    stateOf,

    /** The signed-in user's verification, as Edit Profile shows it. */
    async status(userId: string): Promise<KycStatus> {
      const checks = await repo.checksOf(q, userId);
      const state = stateFrom(checks);
      const shown = checks.find((c) => c.state === "verified") ?? checks[0];
      return {
        state,
        provider: shown?.provider ?? null,
        reason: state === "rejected" ? (shown?.reason ?? null) : null,
        decidedAt: shown?.decided_at?.toISOString() ?? null,
        inrYearlyLimitPaise: deps.inrYearlyLimitPaise.toString(),
      };
    },

    /** Opens a new attempt at the provider (a rejected or pending user may start again); 409 once verified. */
    async start(userId: string): Promise<{ url: string }> {
      if ((await stateOf(userId)) === "verified") throw AppError.conflict(kycMessages.alreadyVerified);
      const provider = current();
      const opened = await provider.start({
        userId,
        returnUrl: `${publicUrl}${KYC_RETURN_PATH}`,
      });
      await repo.insertCheck(q, {
        userId,
        provider: provider.name,
        session: opened.session,
        now: clock.date(),
      });
      log("info", "kyc: verification started", { userId, provider: provider.name });
      return { url: opened.url };
    },

    /**
     * A provider's webhook: verified over the raw bytes (400 before anything is written), then
     * applied once per provider event id; a pending attempt becomes verified or rejected, a decided
     * one never changes.
     */
    async handleWebhook(name: string, raw: Buffer, headers: IncomingHttpHeaders) {
      const provider = providers[name];
      if (!provider) throw AppError.notFound("KYC provider");
      const event = provider.verifyWebhook(raw, headers, clock.now());
      if (!event) return { received: true as const, duplicate: false };
      return withTransaction(database, async (tx) => {
        const tq = queryOf(tx);
        if (!(await repo.claimEvent(tq, name, event.id, clock.date())))
          return { received: true as const, duplicate: true };
        const check = await repo.findBySession(tq, event.session, true);
        if (!check || check.provider !== name) {
          log("warn", "kyc: event for an unknown session ignored", { provider: name, eventId: event.id });
          return { received: true as const, duplicate: false };
        }
        const decided = await repo.decide(tq, check.id, {
          state: event.result,
          providerRef: event.providerRef,
          reason: event.reason,
          now: clock.date(),
        });
        log("info", decided ? "kyc: verification decided" : "kyc: event for a decided attempt ignored", {
          userId: check.user_id,
          result: event.result,
        });
        return { received: true as const, duplicate: false };
      });
    },

    /** Throws `kyc_required` (403) naming `who` unless the user's identity is verified. */
    async requireVerified(userId: string, who: string): Promise<void> {
      const state = await stateOf(userId);
      if (state !== "verified")
        throw new AppError("kyc_required", kycMessages.payoutNeedsKyc(who, state), { state });
    },

    /** Of some users, those whose identity is verified. */
    verifiedAmong: (userIds: string[]) => repo.verifiedAmong(q, userIds),

    /** KYC_INR_YEARLY_LIMIT_PAISE. */
    inrYearlyLimitPaise: () => deps.inrYearlyLimitPaise,

    /** The sandbox's hosted page of a session (404 for an unknown one). */
    async sandboxPage(session: string): Promise<string> {
      const check = await repo.findBySession(q, session);
      if (check?.provider !== "sandbox") throw AppError.notFound("Verification");
      return kycSandboxPage({ sessionId: session, state: check.state });
    },

    /** The applicant's choice on the sandbox page: where to send them, and the signed result to deliver. */
    async sandboxAction(
      session: string,
      action: "approve" | "reject" | "abandon",
    ): Promise<{ redirect: string; deliveries: SignedDelivery[] }> {
      const check = await repo.findBySession(q, session);
      if (check?.provider !== "sandbox" || !deps.sandbox) throw AppError.notFound("Verification");
      const back = `${KYC_RETURN_PATH}?kyc=${action === "abandon" ? "cancelled" : "submitted"}#verify-identity`;
      if (action === "abandon" || check.state !== "pending") return { redirect: back, deliveries: [] };
      const result = action === "approve" ? "verified" : "rejected";
      return {
        redirect: back,
        deliveries: [sandboxKycDelivery(deps.sandbox.secret, session, result, () => clock.now())],
      };
    },

    /** Where the sandbox's webhooks go: through the routes' HTTP stack (set when the routes are built). */
    useSandboxPost(post: SandboxPost) {
      outbox = createSandboxOutbox(post, (err) =>
        log("warn", "kyc sandbox: webhook delivery failed", { err: String(err) }),
      );
      return outbox;
    },
  };
}

export type KycService = ReturnType<typeof createKycService>;

/** The person's verification attempts for their data archive (decision 170): references and results. */
export async function exportKyc(q: Query, s: PersonalSubject) {
  return { checks: await repo.exportChecks(q, s.userId) };
}
