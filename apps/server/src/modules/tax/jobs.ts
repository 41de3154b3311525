import { z } from "zod";
import { defineJob } from "../../platform/jobs/jobs.ts";
import type { ModuleWork } from "../../platform/work.ts";
import { CHAIN_EVENTS_CHANNEL } from "../indexer/service.ts";
import type { TaxService } from "./service.ts";

/**
 * Every five minutes, after each batch of chain events and at start: records the purchases and sales
 * of every Indian resident not recorded yet (decision 176). Statements and TDS previews also record a
 * user's own first, so a download never misses a sale the job has not reached.
 */
export function recordTaxJob(tax: Pick<TaxService, "syncResidents">, log: (made: number) => void) {
  return defineJob({
    name: "tax.record",
    payload: z.object({}),
    retry: { limit: 2, delaySeconds: 30, backoff: true },
    expireInSeconds: 600,
    schedule: { cron: "*/5 * * * *", payload: {} },
    handler: async () => {
      const made = await tax.syncResidents();
      if (made) log(made);
    },
  });
}

export function taxWork(
  tax: Pick<TaxService, "syncResidents">,
  deps: { chain: boolean; log: (made: number) => void },
): ModuleWork {
  const job = recordTaxJob(tax, deps.log);
  return {
    module: "tax",
    jobs: [job],
    onStart: [job],
    subscriptions: deps.chain ? [{ channel: CHAIN_EVENTS_CHANNEL, handle: () => tax.syncResidents() }] : [],
  };
}
