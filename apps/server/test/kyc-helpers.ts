import type { KycStatus } from "@diginoor/api/kyc";
import { until } from "./commerce-helpers.ts";
import type { TestApp } from "./harness.ts";

/**
 * A user's identity verification through the sandbox KYC provider, as the browser does it: start an
 * attempt, press Approve or Reject on the sandbox's hosted page (a form POST answered by a redirect),
 * then wait for the sandbox's signed webhook to be applied.
 */
export async function sandboxKyc(
  t: TestApp,
  userId: string,
  action: "approve" | "reject",
): Promise<KycStatus> {
  const { url } = await t.ctx.services.kyc.start(userId);
  const path = new URL(url).pathname;
  const page = await t.app.inject({ method: "GET", url: path });
  if (page.statusCode !== 200) throw new Error(`sandbox KYC page answered ${page.statusCode}`);
  const pressed = await t.app.inject({ method: "POST", url: `${path}/${action}` });
  if (pressed.statusCode !== 302) throw new Error(`sandbox KYC ${action} answered ${pressed.statusCode}`);
  const want = action === "approve" ? "verified" : "rejected";
  return until(
    `KYC ${want}`,
    () => t.ctx.services.kyc.status(userId),
    (s) => s.state === want,
  );
}
