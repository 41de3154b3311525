// npm run admin:create -- <email>             make <email> an administrator (creating the account if needed)
// npm run admin:create -- --suspend <email>   suspend an account (sign-in refused, sessions ended)
// npm run admin:create -- --unsuspend <email> reinstate a suspended account
import { emailSchema } from "@diginoor/api/auth";
import { bootstrap } from "../../bootstrap.ts";
import { ConfigError, loadConfig } from "../../config.ts";

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
  const config = loadConfig();
  // No chain: administration touches accounts only.
  const ctx = await bootstrap(config, { chain: null });
  try {
    if (flag) {
      await ctx.services.accounts.setSuspended(email, flag === "--suspend");
      console.log(
        flag === "--suspend" ? `Suspended ${email}; its sessions are ended.` : `Reinstated ${email}.`,
      );
      return;
    }
    const result = await ctx.services.accounts.promoteToAdmin(email);
    if (result.created) {
      console.log(`Created administrator ${email}.`);
      console.log(`Choose its password within one hour at:\n  ${result.setPasswordUrl}`);
    } else if (result.setPasswordUrl) {
      console.log(`${email} is now an administrator (its unverified password was removed).`);
      console.log(`Choose its password within one hour at:\n  ${result.setPasswordUrl}`);
    } else {
      console.log(`${email} is now an administrator.`);
    }
  } finally {
    await ctx.close();
  }
}

main().catch((err) => {
  if (err instanceof ConfigError) console.error(err.message);
  else console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
