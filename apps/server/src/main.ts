import { seedBlog } from "../seed/blog.ts";
import { catalogueArtwork, seedCatalogue } from "../seed/seed.ts";
import { buildApp } from "./app.ts";
import { bootstrap } from "./bootstrap.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { startHealthServer } from "./health-server.ts";
import { servesHttp } from "./platform/work.ts";
import { startDraining } from "./http/draining.ts";
import { isDatabaseUnavailable } from "./http/unavailable.ts";
import { adminSocketPath, runAdminCommand, startAdminChannel } from "./modules/accounts/admin-channel.ts";

// pg-boss 10 does not await its own bookkeeping of a finished job (complete() and fail() in its
// worker loop), so while PostgreSQL restarts their rejection is unhandled, and Node ended the worker
// process for it (found by test/fault-postgres.test.ts). A lost connection that nothing awaited is
// logged and survived (the job is fetched again when its expiry passes; handlers are idempotent);
// any other unhandled rejection still ends the process, as Node's default does.
process.on("unhandledRejection", (reason) => {
  if (isDatabaseUnavailable(reason)) {
    console.error(`database unreachable (in a promise nothing awaited): ${String(reason)}`);
    return;
  }
  throw reason;
});

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }

  const ctx = await bootstrap(config, { log: (m) => console.log(m) });
  if (ctx.appliedMigrations.length) console.log(`Applied migrations: ${ctx.appliedMigrations.join(", ")}`);
  if (config.SEED_ON_START) {
    const seed = await seedCatalogue(ctx.db, { storage: ctx.storage });
    if (seed.seeded) {
      console.log(`Seeded the catalogue: ${seed.counts.nfts} NFTs in ${seed.counts.films} films`);
    }
    const blog = await seedBlog(ctx.db, { storage: ctx.storage });
    if (blog.seeded) console.log(`Seeded the blog: ${blog.posts} posts`);
    if (blog.refreshed > 0) console.log(`Gave ${blog.refreshed} unedited launch post(s) today's text`);
    // The list index loaded before the seed; it reads the seeded NFTs now rather than at its next poll.
    if (seed.seeded) await ctx.services.catalogue.catchUpIndex();
  }
  const role = config.ROLE;
  // ROLE=worker: no HTTP app at all, only the health endpoints; api and all: the whole app.
  // The seeded artwork's renditions are made in the background (a no-op once they are cached).
  const warmPictures = config.SEED_ON_START ? catalogueArtwork().map((f) => f.svgPath) : undefined;
  const app = servesHttp(role) ? await buildApp(ctx, { warmPictures }) : undefined;
  if (app) await app.ready();
  // The background work by role: jobs, subscriptions and the indexer in `all` and `worker`; an `api`
  // process registers the jobs (to enqueue them) and runs none.
  await ctx.startWork(role);
  const health = app
    ? undefined
    : await startHealthServer({
        port: config.PORT,
        host: config.HOST,
        ready: () => ctx.database.query("SELECT 1"),
      });

  // On PGlite this process holds the database alone: `npm run admin:create` asks it over a local socket.
  const adminChannel =
    ctx.database.kind === "pglite" && !config.DATABASE_URL
      ? await startAdminChannel(adminSocketPath(config.paths.pglite), (cmd) =>
          runAdminCommand(ctx.services.accounts, cmd),
        )
      : undefined;

  const shutdown = async (signal: string) => {
    await adminChannel?.close();
    if (app) {
      app.log.info({ signal, drainMs: config.SHUTDOWN_DRAIN_MS }, "shutting down");
      // Out of the balancer's rotation first (readiness 503), still serving meanwhile; then close:
      // in-flight requests complete, event streams end with a reconnect hint.
      startDraining();
      if (config.SHUTDOWN_DRAIN_MS > 0) await new Promise((r) => setTimeout(r, config.SHUTDOWN_DRAIN_MS));
      await app.close();
    } else {
      // A worker is in no balancer's rotation: its running jobs finish as its work stops (ctx.close).
      console.log(`shutting down (${signal})`);
      await health?.close();
    }
    await ctx.close();
    process.exit(0);
  };
  process.once("SIGINT", () => void shutdown("SIGINT"));
  process.once("SIGTERM", () => void shutdown("SIGTERM"));

  await app?.listen({ port: config.PORT, host: config.HOST });
  const where = config.DATABASE_URL ? "PostgreSQL server" : `embedded PGlite in ${config.DATA_DIR}`;
  const chain = ctx.chain;
  const onChain = chain ? `, chain ${chain.chainId}${chain.local ? " (local anvil)" : ""}` : "";
  const what =
    role === "worker" ? `worker (health at http://${config.HOST}:${config.PORT}/healthz)` : config.PUBLIC_URL;
  console.log(
    `\nDiginoor ${role === "all" ? "" : `${role} `}is running at ${what}  (database: ${where}${onChain})\n`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
