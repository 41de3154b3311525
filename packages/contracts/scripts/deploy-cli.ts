/**
 * Deploy and configure the Diginoor contracts on any RPC and print ONE JSON line:
 *   {"chainId":31337,"collectible":"0x…","marketplace":"0x…","deployer":"0x…","minter":"0x…","treasury":"0x…","blockNumber":"1"}
 *
 * Usage: npm run deploy -w packages/contracts -- --rpc <url> [--base-uri <uri>] [--treasury <address>]
 * Env: DEPLOYER_PRIVATE_KEY (anvil's first dev account when unset), MINTER_PRIVATE_KEY (its address gets the
 * minter and voucher-signer roles; the deployer when unset), CHAIN_RPC_URL (when --rpc is absent),
 * PUBLIC_URL (base URI `${PUBLIC_URL}/api/v1/metadata/` when --base-uri is absent), TREASURY_ADDRESS.
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
  },
  allowPositionals: false,
});

const rpcUrl = values.rpc ?? process.env.CHAIN_RPC_URL ?? "http://127.0.0.1:8545";
const publicUrl = (process.env.PUBLIC_URL ?? "http://localhost:3000").replace(/\/+$/, "");
const metadataBaseUri = values["base-uri"] ?? `${publicUrl}/api/v1/metadata/`;
const deployerPrivateKey = (process.env.DEPLOYER_PRIVATE_KEY || undefined) as Hex | undefined;
const minterKey = (process.env.MINTER_PRIVATE_KEY || undefined) as Hex | undefined;
const minterAddress = minterKey ? privateKeyToAccount(minterKey).address : undefined;
const treasuryArg = values.treasury ?? process.env.TREASURY_ADDRESS;
const treasury: Address | undefined = treasuryArg ? getAddress(treasuryArg) : undefined;

try {
  const d = await deployAll({ rpcUrl, deployerPrivateKey, minterAddress, treasury, metadataBaseUri });
  process.stdout.write(
    `${JSON.stringify({ ...d, blockNumber: d.blockNumber.toString(), metadataBaseUri })}\n`,
  );
} catch (err) {
  console.error(`deploy failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
