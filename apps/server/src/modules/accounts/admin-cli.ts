// npm run admin:create -- <email>             make <email> an administrator (creating the account if needed)
// npm run admin:create -- --suspend <email>   suspend an account (sign-in refused, sessions ended)
// npm run admin:create -- --unsuspend <email> reinstate a suspended account
// Beside a server running on PGlite, the command is run by that server (admin-channel.ts, decision 193).
import { emailSchema } from "@diginoor/api/auth";
import { bootstrap } from "../../bootstrap.ts";
import { ConfigError, loadConfig } from "../../config.ts";
import { DatabaseInUseError } from "../../db/client.ts";
import { type AdminCommand, adminSocketPath, askAdminChannel, runAdminCommand } from "./admin-channel.ts";

function inUse(err: unknown): DatabaseInUseError | undefined {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    if (e instanceof DatabaseInUseError) return e;
  }
  return undefined;
}

async function main() {
  const args = process.argv.slice(2).filter((a) => a !== "--");
  const flag = args.find((a) => a.startsWith("--"));
  const email = args.find((a) => !a.startsWith("--"));
  if (!email || (flag && flag !== "--suspend" && flag !== "--unsuspend")) {
    console.error("Usage: npm run admin:create -- [--suspend | --unsuspend] <email>");
    process.exit(2);
  }
  if (!emailSchema.safeParse(email).success) {
    console.error(`Invalid email address: ${email}`);
    process.exit(2);
  }
  const cmd: AdminCommand = {
    op: flag === "--suspend" ? "suspend" : flag === "--unsuspend" ? "unsuspend" : "promote",
    email,
  };
  const config = loadConfig();
  let ctx: Awaited<ReturnType<typeof bootstrap>>;
  try {
    // No chain: administration touches accounts only.
    ctx = await bootstrap(config, { chain: null });
  } catch (err) {
    const busy = inUse(err);
    if (!busy) throw err;
    // The server running on this PGlite holds it: it runs the command for us, over its local socket.
    const answer = await askAdminChannel(adminSocketPath(busy.dataDir), cmd);
    if (!answer) {
      throw new Error(
        `${busy.message}\nThat server does not take commands (it predates this version, or its socket ` +
          `${adminSocketPath(busy.dataDir)} is gone): stop it (Ctrl-C), run this command again, then start it.`,
      );
    }
    if (!answer.ok) throw new Error(answer.error);
    console.log(`(run by the server using ${busy.dataDir}, process ${busy.pid})`);
    for (const line of answer.lines) console.log(line);
    return;
  }
  try {
    for (const line of await runAdminCommand(ctx.services.accounts, cmd)) console.log(line);
  } finally {
    await ctx.close();
  }
}

main().catch((err) => {
  if (err instanceof ConfigError) console.error(err.message);
  else console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
