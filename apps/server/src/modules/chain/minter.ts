import { createWalletClient, type Hash, type LocalAccount } from "viem";
import { rpcTransport } from "../../lib/rpc-transport.ts";
import type { ChainRuntime } from "./runtime.ts";

type WriteRequest = Omit<Parameters<ReturnType<typeof createWalletClient>["writeContract"]>[0], "account">;

/** The minter key's transactions (MINTER_ROLE): card-order mints and primary auctions. */
export interface Minter {
  account: LocalAccount;
  /** Sends one contract call from the minter key; resolves to its hash once the node accepted it. */
  write(request: WriteRequest): Promise<Hash>;
  /** Sends one call and waits for its receipt; throws when it reverted. */
  send(request: WriteRequest): Promise<Hash>;
}

/**
 * Transactions from the minter key, sent one at a time by this process: each send takes the next
 * nonce from the node's pending count, so concurrent fulfilments never reuse a nonce (waiting for
 * receipts stays concurrent). Two worker processes can still collide; the loser's job is retried.
 * Undefined when the chain has no minter key.
 */
export function createMinter(chain: ChainRuntime | undefined): Minter | undefined {
  return createKeySender(chain, chain?.minter);
}

/** The same nonce-ordered sends from another of the server's keys (the resale buyer's). */
export function createKeySender(
  chain: ChainRuntime | undefined,
  account: LocalAccount | undefined,
): Minter | undefined {
  if (!chain || !account) return undefined;
  const wallet = createWalletClient({ account, transport: rpcTransport(chain.rpcUrls) });
  let queue: Promise<unknown> = Promise.resolve();
  const write = (request: WriteRequest): Promise<Hash> => {
    const sent = queue.then(() => wallet.writeContract({ ...request, account } as never));
    queue = sent.catch(() => {});
    return sent;
  };
  return {
    account,
    write,
    async send(request) {
      const hash = await write(request);
      const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
      if (receipt.status !== "success") throw new Error(`transaction ${hash} reverted`);
      return hash;
    },
  };
}
