import { polygon } from "viem/chains";
import { describe, expect, it } from "vitest";
import type { ChainInfo } from "./chain.ts";
import { chainReader } from "./viem-chain.ts";

const info = (o: Partial<ChainInfo>) =>
  ({ chainName: null, nativeSymbol: null, ...o }) as ChainInfo & { chainId: number };

describe("chainReader (the passkey wallet's reads)", () => {
  it("reads a production chain through its public RPC: the server gives no RPC URL for it", () => {
    // Before, the passkey wallet read through the bundler proxy, which passes the ERC-4337 methods only:
    // on Polygon every operation failed at the account's nonce.
    const client = chainReader(info({ chainId: polygon.id, rpcUrl: null }));
    expect(client.transport.url).toBe(polygon.rpcUrls.default.http[0]);
  });

  it("reads the local chain through the server's RPC URL", () => {
    const client = chainReader(info({ chainId: 31337, rpcUrl: "http://127.0.0.1:8545" }));
    expect(client.transport.url).toBe("http://127.0.0.1:8545");
    expect(client.chain.id).toBe(31337);
  });
});
