/**
 * The passkey-wallet setting of a test file: the contracts fixture, EntryPoint v0.8 with our factory and
 * paymaster (trusting the test sponsorship key, test/sponsorship.ts), the real bundler (Alto) and viem's bundler client on it, fees from the bundler's quote as the
 * web app takes them (apps/web/src/lib/wallet/passkey.ts).
 */
import { http } from "viem";
import { type BundlerClient, createBundlerClient } from "viem/account-abstraction";
import { privateKeyToAccount } from "viem/accounts";
import { estimateFeesPerGas } from "viem/actions";
import { ANVIL_PRIVATE_KEYS } from "../src/anvil-accounts.js";
import { type BundlerInstance, startBundler } from "../src/bundler.js";
import { bundlerFeesPerGas } from "../src/passkey-account.js";
import { deployWallets, type WalletContracts } from "../src/wallets.js";
import { type Fixture, setupFixture } from "./fixture.js";
import { SPONSOR_SIGNER } from "./sponsorship.js";

export interface WalletFixture {
  f: Fixture;
  wallets: WalletContracts;
  bundler: BundlerInstance;
  bundlerClient: BundlerClient;
  stop(): Promise<void>;
}

export async function setupWalletFixture(): Promise<WalletFixture> {
  const f = await setupFixture();
  try {
    const wallets = await deployWallets({
      rpcUrl: f.anvil.rpcUrl,
      collectible: f.collectible,
      marketplace: f.marketplace,
      guardian: privateKeyToAccount(ANVIL_PRIVATE_KEYS[5]).address,
      sponsorSigner: SPONSOR_SIGNER,
    });
    const bundler = await startBundler({
      rpcUrl: f.anvil.rpcUrl,
      executorPrivateKey: ANVIL_PRIVATE_KEYS[7],
      utilityPrivateKey: ANVIL_PRIVATE_KEYS[8],
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
    return {
      f,
      wallets,
      bundler,
      bundlerClient,
      async stop() {
        await bundler.stop();
        await f.stop();
      },
    };
  } catch (err) {
    await f.stop();
    throw err;
  }
}
