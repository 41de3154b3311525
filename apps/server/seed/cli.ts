// `npm run seed`: migrates the configured database and creates the launch catalogue if it is empty.
import { bootstrap } from "../src/bootstrap.ts";
import { loadConfigOrExit } from "../src/config.ts";
import { seedBlog } from "./blog.ts";
import { seedCatalogue } from "./seed.ts";

async function main() {
  const config = loadConfigOrExit();
  const where = config.DATABASE_URL ? "PostgreSQL server" : `PGlite in ${config.paths.pglite}`;
  // No chain: seeding writes the catalogue and its artwork only.
  const ctx = await bootstrap(config, { chain: null });
  const database = ctx.database;
  try {
    const applied = ctx.appliedMigrations;
    if (applied.length) console.log(`Applied migrations: ${applied.join(", ")}`);
    const started = Date.now();
    const result = await seedCatalogue(database.db, { storage: ctx.storage });
    const c = result.counts;
    if (result.seeded) {
      console.log(
        `Seeded the catalogue (${where}): ${c.nfts} NFTs, ${c.films} films, ${c.celebrities} stars, ${c.studios} studios, ${c.collections} collections, ${c.team} team members.`,
      );
    } else {
      console.log(`The catalogue already has data (${where}); nothing inserted.`);
    }
    const blog = await seedBlog(database.db, { storage: ctx.storage });
    console.log(
      blog.seeded ? `Seeded the blog: ${blog.posts} posts.` : "The blog already has posts; nothing inserted.",
    );
    console.log(
      `Artwork: ${result.artworkFilesWritten + blog.artworkFilesWritten} file(s) written to ${config.STORAGE === "local" ? config.paths.media : `${config.STORAGE} storage`} (existing files kept), in ${Date.now() - started} ms.`,
    );
  } finally {
    await ctx.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
