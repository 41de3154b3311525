/**
 * The passkey-wallet setting of a test file: the contracts fixture with the passkey wallets on it
 * ({@link startWalletBed}: EntryPoint v0.8 with our factory and paymaster trusting the test sponsorship key,
 * test/sponsorship.ts; the real bundler (Alto) and viem's bundler client on it, fees from the bundler's quote
 * as the web app takes them), stopped together.
 */
import type { BundlerClient } from "viem/account-abstraction";
import type { BundlerInstance } from "../src/bundler.js";
import type { WalletContracts } from "../src/wallets.js";
import { type Fixture, setupFixture } from "./fixture.js";
import { startWalletBed } from "./wallet-bed.js";

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
    const bed = await startWalletBed(f);
    return {
      f,
      ...bed,
      async stop() {
        await bed.bundler.stop();
        await f.stop();
      },
    };
  } catch (err) {
    await f.stop();
    throw err;
  }
}
