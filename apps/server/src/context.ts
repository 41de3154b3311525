import type { ChainRuntime } from "./chain/runtime.ts";
import type { Config } from "./config.ts";
import type { Database, Db } from "./db/client.ts";

/** What every module's `register` receives: configuration and the database. */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  /** The chain and our contracts; absent when CHAIN_DISABLED=1 (tests of off-chain areas). */
  chain?: ChainRuntime;
}
