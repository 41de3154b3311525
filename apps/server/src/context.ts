import type { ChainRuntime } from "./modules/chain/runtime.ts";
import type { Config } from "./config.ts";
import type { Database, Db } from "./db/client.ts";
import type { Clock } from "./platform/clock.ts";
import type { Jobs } from "./platform/jobs/jobs.ts";
import type { PubSub } from "./platform/pubsub/pubsub.ts";

/** What every module's `register` receives: configuration, the database and the platform pieces. */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  /** The chain and our contracts; absent when CHAIN_DISABLED=1 (tests of off-chain areas). */
  chain?: ChainRuntime;
  /** Time source (a test clock in tests). */
  clock: Clock;
  /** Durable jobs; modules register their definitions, the app starts them when ready. */
  jobs: Jobs;
  /** Messages between server processes. */
  pubsub: PubSub;
}
