import type { Config } from "./config.ts";
import type { Database, Db } from "./db/client.ts";

/** What every module's `register` receives: configuration and the database. */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
}
