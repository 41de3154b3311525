/**
 * Deploy and configure the Diginoor contracts on any RPC and print ONE JSON line:
 *   {"chainId":31337,"collectible":"0x…","marketplace":"0x…","deployer":"0x…","admin":"0x…","minter":"0x…","signer":"0x…","treasury":"0x…","blockNumber":"1"}
 *   (with --wallets also "accountFactory", "paymaster" and "sponsorSigner")
 *
 * Usage: npm run deploy -w packages/contracts -- --rpc <url> [--base-uri <uri>] [--treasury <address>]
 *          [--admin <address>] [--admin-delay <seconds>] [--minter <address>] [--signer <address>]
 *          [--wallets --sponsor-signer <address> [--paymaster-stake <wei>] [--unstake-delay <seconds>]
 *           [--paymaster-deposit <wei>]]
 * --wallets also deploys the passkey wallet contracts (decision 160: EntryPoint v0.8 where missing, account
 * factory, paymaster), the paymaster staked at once (default 1 native token, a day's unstake delay; decision
 * 181) with the same admin, and adds "accountFactory", "paymaster" and "sponsorSigner" to the line.
 * --sponsor-signer is required with --wallets: the address of the server's SPONSOR_SIGNER_PRIVATE_KEY, the
 * only key whose sponsorships the verifying paymaster pays for (decision 186). The factory names no
 * guardian: each fan names their own (decision 185). Outside a development chain its key checks are
 * deployAll's: the admin (a multisig) is not the deployer, the sponsorship signer is not the deployer, and
 * the stake is at least the minimum; they run
 * before anything is deployed.
 * Env: DEPLOYER_PRIVATE_KEY (anvil's first dev account when unset); MINTER_PRIVATE_KEY and
 * VOUCHER_SIGNER_PRIVATE_KEY (their addresses get MINTER_ROLE and SIGNER_ROLE when --minter / --signer
 * are absent), ADMIN_ADDRESS (a multisig: admin of both contracts from their constructors), CHAIN_RPC_URL
 * (when --rpc is absent), PUBLIC_URL (base URI `${PUBLIC_URL}/api/v1/metadata/` when --base-uri is absent),
 * TREASURY_ADDRESS.
 * On a development chain (31337, 1337) every role not given goes to the deployer. On any other chain the
 * deployment is refused unless admin, minter, signer and treasury are four different addresses, none of them
 * the deployer's; the error says what to pass (docs/decisions/109-contract-keys-and-roles.md).
 */
import { parseArgs } from "node:util";
import { type Address, createPublicClient, getAddress, type Hex, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { ANVIL_DEPLOYER_PRIVATE_KEY } from "../src/anvil-accounts.js";
import { checkRoles, deployAll } from "../src/deploy.js";
import {
  checkWalletRoles,
  DEFAULT_PAYMASTER_STAKE_WEI,
  DEFAULT_UNSTAKE_DELAY_SECONDS,
  deployWallets,
} from "../src/wallets.js";

const { values } = parseArgs({
  options: {
    rpc: { type: "string" },
    "base-uri": { type: "string" },
    treasury: { type: "string" },
    admin: { type: "string" },
    "admin-delay": { type: "string" },
    minter: { type: "string" },
    signer: { type: "string" },
    wallets: { type: "boolean" },
    "sponsor-signer": { type: "string" },
    "paymaster-stake": { type: "string" },
    "unstake-delay": { type: "string" },
    "paymaster-deposit": { type: "string" },
  },
  allowPositionals: false,
});

function addressOf(flag: string | undefined, keyEnv: string): Address | undefined {
  if (flag) return getAddress(flag);
  const key = process.env[keyEnv];
  return key ? privateKeyToAccount(key as Hex).address : undefined;
}

try {
  const rpcUrl = values.rpc ?? process.env.CHAIN_RPC_URL ?? "http://127.0.0.1:8545";
  const publicUrl = (process.env.PUBLIC_URL ?? "http://localhost:3000").replace(/\/+$/, "");
  const metadataBaseUri = values["base-uri"] ?? `${publicUrl}/api/v1/metadata/`;
  const deployerPrivateKey = (process.env.DEPLOYER_PRIVATE_KEY || undefined) as Hex | undefined;
  const treasuryArg = values.treasury ?? process.env.TREASURY_ADDRESS;
  const adminArg = values.admin ?? process.env.ADMIN_ADDRESS;
  const delay = values["admin-delay"];
  if (delay !== undefined && !/^\d+$/.test(delay))
    throw new Error("--admin-delay must be a number of seconds");
  const whole = (flag: string, v: string | undefined) => {
    if (v !== undefined && !/^\d+$/.test(v)) throw new Error(`--${flag} must be a whole number`);
    return v === undefined ? undefined : BigInt(v);
  };
  const stakeWei = whole("paymaster-stake", values["paymaster-stake"]) ?? DEFAULT_PAYMASTER_STAKE_WEI;
  const unstakeDelaySeconds = Number(
    whole("unstake-delay", values["unstake-delay"]) ?? DEFAULT_UNSTAKE_DELAY_SECONDS,
  );
  const depositWei = whole("paymaster-deposit", values["paymaster-deposit"]);
  const sponsorSignerArg = values["sponsor-signer"];
  if (values.wallets && !sponsorSignerArg)
    throw new Error(
      "--wallets needs --sponsor-signer <address>: the address of the server's SPONSOR_SIGNER_PRIVATE_KEY (decision 186)",
    );
  if (sponsorSignerArg && !values.wallets) throw new Error("--sponsor-signer is only for --wallets");
  const sponsorSigner = sponsorSignerArg ? getAddress(sponsorSignerArg) : undefined;
  const minterAddress = addressOf(values.minter, "MINTER_PRIVATE_KEY");
  const signerAddress = addressOf(values.signer, "VOUCHER_SIGNER_PRIVATE_KEY");
  const adminAddress = adminArg ? getAddress(adminArg) : undefined;
  const treasury = treasuryArg ? getAddress(treasuryArg) : undefined;
  // Every key check before the first transaction: a refused wallet deployment leaves nothing half done.
  const chainId = await createPublicClient({ transport: http(rpcUrl) }).getChainId();
  const deployer = privateKeyToAccount(deployerPrivateKey ?? ANVIL_DEPLOYER_PRIVATE_KEY).address;
  checkRoles(chainId, deployer, {
    admin: adminAddress,
    minter: minterAddress,
    signer: signerAddress,
    treasury,
  });
  if (values.wallets)
    checkWalletRoles(chainId, deployer, {
      admin: adminAddress,
      sponsorSigner,
      stakeWei,
      unstakeDelaySeconds,
    });
  const d = await deployAll({
    rpcUrl,
    deployerPrivateKey,
    metadataBaseUri,
    minterAddress,
    signerAddress,
    adminAddress,
    adminDelaySeconds: delay === undefined ? undefined : Number(delay),
    treasury,
  });
  const w = sponsorSigner
    ? await deployWallets({
        rpcUrl,
        deployerPrivateKey,
        collectible: d.collectible,
        marketplace: d.marketplace,
        sponsorSigner,
        admin: adminAddress,
        stakeWei,
        unstakeDelaySeconds,
        depositWei,
      })
    : undefined;
  process.stdout.write(
    `${JSON.stringify({
      ...d,
      blockNumber: d.blockNumber.toString(),
      metadataBaseUri,
      ...(w && sponsorSigner ? { accountFactory: w.factory, paymaster: w.paymaster, sponsorSigner } : {}),
    })}\n`,
  );
} catch (err) {
  console.error(`deploy failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
