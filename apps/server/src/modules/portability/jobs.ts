// The portability module's background work: the ERC-4906 refresh a console edit enqueues (issue 37, decision 180).
import { defineJob } from "../../platform/jobs/jobs.ts";
import type { ModuleWork } from "../../platform/work.ts";
import { refreshMetadataJob } from "./refresh.ts";
import type { PortabilityService } from "./service.ts";

export function portabilityWork(
  portability: Pick<PortabilityService, "refreshMetadata">,
  log: (obj: object, msg: string) => void = () => {},
): ModuleWork {
  return {
    module: "portability",
    jobs: [
      defineJob({
        name: refreshMetadataJob.name,
        payload: refreshMetadataJob.payload,
        // A chain that does not answer is tried again for about an hour, then the job stays visible as failed.
        retry: { limit: 8, delaySeconds: 15, backoff: true },
        expireInSeconds: 300,
        handler: async ({ catalogueNumbers, reason }) => {
          const r = await portability.refreshMetadata(catalogueNumbers);
          log(
            r.sent
              ? { reason, catalogueNumbers, txHash: r.txHash, ranges: r.ranges.length }
              : { reason, catalogueNumbers, skipped: r.why },
            "metadata refresh (ERC-4906)",
          );
        },
      }),
    ],
  };
}
