// Writes the served OpenAPI document to docs/openapi.json (`npm run openapi:write`). CI fails when
// the two differ (apps/server/test/openapi.test.ts); Redocly lints the file (`npm run lint`).
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { buildApp } from "../src/app.ts";
import { bootstrap } from "../src/bootstrap.ts";
import { loadConfig } from "../src/config.ts";
import { openDatabase } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";
import { OPENAPI_FILE, OPENAPI_CONFIG, formatOpenApi } from "./openapi-file.ts";

const database = await openDatabase({ dataDir: "memory://" });
await migrate(database);
const config = loadConfig({ ...OPENAPI_CONFIG, DATA_DIR: fs.mkdtempSync("/tmp/diginoor-openapi-") });
const ctx = await bootstrap(config, { database, chain: null });
const app = await buildApp(ctx, { webDistDir: "/nonexistent" });
await app.ready();
const doc = (await app.inject("/api/openapi.json")).json();
await app.close();
await ctx.close();
await database.close();
fs.writeFileSync(OPENAPI_FILE, formatOpenApi(doc));
console.log(`wrote ${fileURLToPath(new URL(OPENAPI_FILE))}: ${Object.keys(doc.paths).length} paths`);
