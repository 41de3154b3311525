import { z } from "zod";
import { defineJob } from "../../platform/jobs/jobs.ts";
import type { ModuleWork } from "../../platform/work.ts";
import type { WalletRecoveryService } from "./recovery.ts";

/**
 * Every minute: each live passkey-wallet recovery one step on (decision 160): the guardian's proposal
 * sent if a crash stopped it, the reminder a day before it can complete, its completion once the chain's
 * time allows, or the notice that a passkey of the wallet cancelled it.
 */
export function followRecoveriesJob(
  recovery: Pick<WalletRecoveryService, "followAll">,
  log: (o: object) => void,
) {
  return defineJob({
    name: "wallets.recoveries",
    payload: z.object({}),
    retry: { limit: 1, delaySeconds: 30, backoff: false },
    expireInSeconds: 120,
    schedule: { cron: "* * * * *", payload: {} },
    handler: async () => {
      const counts = await recovery.followAll();
      if (Object.keys(counts).length > 0) log(counts);
    },
  });
}

/** The wallets module's background work: following recoveries (only with a chain and a guardian key). */
export function walletsWork(recovery: WalletRecoveryService, log: (o: object) => void): ModuleWork {
  return { module: "wallets", jobs: [followRecoveriesJob(recovery, log)] };
}
