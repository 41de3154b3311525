// The console's background work (kept out of routes.ts: a route file maps HTTP only).
import type { ModuleWork } from "../../platform/work.ts";
import type { CatalogueService } from "../catalogue/service.ts";
import { CATALOGUE_CHANGED, fromAnotherProcess } from "./service.ts";

/**
 * Every process (API and worker alike: both read the catalogue) drops its catalogue caches when
 * another process's console write commits; its own writes dropped them already.
 */
export function adminWork(catalogue: Pick<CatalogueService, "invalidate">, processId: string): ModuleWork {
  return {
    module: "admin",
    subscriptions: [
      {
        channel: CATALOGUE_CHANGED,
        in: "every",
        handle: (message) => {
          if (fromAnotherProcess(message, processId)) catalogue.invalidate();
        },
      },
    ],
  };
}
