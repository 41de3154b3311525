/**
 * Deploy and configure the Diginoor contracts on any RPC and print ONE JSON line:
 *   {"chainId":31337,"collectible":"0x…","marketplace":"0x…","deployer":"0x…","admin":"0x…","minter":"0x…","signer":"0x…","treasury":"0x…","blockNumber":"1"}
 *
 * Usage: npm run deploy -w packages/contracts -- --rpc <url> [--base-uri <uri>] [--treasury <address>]
 *          [--admin <address>] [--admin-delay <seconds>] [--minter <address>] [--signer <address>]
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
import { type Address, getAddress, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { deployAll } from "../src/deploy.js";

const { values } = parseArgs({
  options: {
    rpc: { type: "string" },
    "base-uri": { type: "string" },
    treasury: { type: "string" },
    admin: { type: "string" },
    "admin-delay": { type: "string" },
    minter: { type: "string" },
    signer: { type: "string" },
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
  const d = await deployAll({
    rpcUrl,
    deployerPrivateKey,
    metadataBaseUri,
    minterAddress: addressOf(values.minter, "MINTER_PRIVATE_KEY"),
    signerAddress: addressOf(values.signer, "VOUCHER_SIGNER_PRIVATE_KEY"),
    adminAddress: adminArg ? getAddress(adminArg) : undefined,
    adminDelaySeconds: delay === undefined ? undefined : Number(delay),
    treasury: treasuryArg ? getAddress(treasuryArg) : undefined,
  });
  process.stdout.write(
    `${JSON.stringify({ ...d, blockNumber: d.blockNumber.toString(), metadataBaseUri })}\n`,
  );
} catch (err) {
  console.error(`deploy failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
