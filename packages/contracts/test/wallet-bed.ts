/**
 * Passkey wallets on a test chain: our factory and verifying paymaster deployed on the fixture's anvil, a local Alto
 * bundler and a viem bundler client priced as the web app prices (apps/web/src/lib/wallet/passkey.ts).
 */
import { http } from "viem";
import { type BundlerClient, createBundlerClient } from "viem/account-abstraction";
import { estimateFeesPerGas } from "viem/actions";
import { ANVIL_PRIVATE_KEYS } from "../src/anvil-accounts.js";
import { type BundlerInstance, startBundler } from "../src/bundler.js";
import { bundlerFeesPerGas } from "../src/passkey-account.js";
import { deployWallets, type WalletContracts } from "../src/wallets.js";
import type { Fixture } from "./fixture.js";
import { SPONSOR_SIGNER } from "./sponsorship.js";

export const BUNDLER_EXECUTOR_KEY = ANVIL_PRIVATE_KEYS[7];
export const BUNDLER_UTILITY_KEY = ANVIL_PRIVATE_KEYS[8];

export interface WalletBed {
  wallets: WalletContracts;
  bundler: BundlerInstance;
  bundlerClient: BundlerClient;
}

/** The wallets on `f`'s chain, the paymaster trusting the test sponsorship key (test/sponsorship.ts). */
export async function startWalletBed(f: Fixture): Promise<WalletBed> {
  const wallets = await deployWallets({
    rpcUrl: f.anvil.rpcUrl,
    collectible: f.collectible,
    marketplace: f.marketplace,
    sponsorSigner: SPONSOR_SIGNER,
  });
  const bundler = await startBundler({
    rpcUrl: f.anvil.rpcUrl,
    executorPrivateKey: BUNDLER_EXECUTOR_KEY,
    utilityPrivateKey: BUNDLER_UTILITY_KEY,
  });
  const bundlerClient = createBundlerClient({
    client: f.publicClient,
    transport: http(bundler.url, { timeout: 60_000 }),
    pollingInterval: 100,
    userOperation: {
      estimateFeesPerGas: ({ bundlerClient: b }) =>
        bundlerFeesPerGas(b as never, () => estimateFeesPerGas(f.publicClient)),
    },
  });
  return { wallets, bundler, bundlerClient };
}
