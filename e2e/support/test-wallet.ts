import { expect, type Page } from "@playwright/test";
import { createPublicClient, createWalletClient, type Hex, http, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";

export interface TestWalletOptions {
  /** The test's chain (the e2e server's anvil). */
  rpcUrl: string;
  chainId: number;
  /** An anvil dev key (packages/contracts/src/anvil-accounts.ts). */
  privateKey: Hex;
  /** The chain the wallet is on when the page opens (default: chainId); another one shows the chain guard. */
  startChainId?: number;
}

export interface TestWallet {
  address: Hex;
  /** JSON-RPC methods the page called, in order. */
  calls: string[];
}

/**
 * A browser wallet for tests: a small EIP-1193 provider injected into the page that announces itself
 * through EIP-6963 (`eip6963:announceProvider`, answering `eip6963:requestProvider`) and forwards every
 * request to Node, where a viem local account signs (personal_sign, eth_sendTransaction) and anvil
 * answers everything else. Our web code talks to it exactly as to MetaMask; nothing of ours is mocked.
 */
export async function installTestWallet(page: Page, o: TestWalletOptions): Promise<TestWallet> {
  const account = privateKeyToAccount(o.privateKey);
  const transport = http(o.rpcUrl);
  const publicClient = createPublicClient({ transport });
  const walletClient = createWalletClient({ account, transport });
  let chainId = o.startChainId ?? o.chainId;
  // Like a real wallet, the site sees no account until the user approves a connection request.
  let approved = false;
  const calls: string[] = [];

  await page.exposeFunction("__diginoorTestWallet", async (method: string, params: unknown[]) => {
    calls.push(method);
    switch (method) {
      case "eth_requestAccounts":
        approved = true;
        return [account.address];
      case "eth_accounts":
        return approved ? [account.address] : [];
      case "eth_chainId":
        return toHex(chainId);
      case "net_version":
        return String(chainId);
      case "wallet_requestPermissions":
        approved = true;
        return [{ parentCapability: "eth_accounts" }];
      case "wallet_getPermissions":
        return approved ? [{ parentCapability: "eth_accounts" }] : [];
      case "wallet_revokePermissions":
        approved = false;
        return null;
      case "wallet_switchEthereumChain": {
        const wanted = Number((params[0] as { chainId: string }).chainId);
        if (wanted !== o.chainId) throw new Error(`Unrecognized chain ID ${wanted}`);
        chainId = wanted;
        return null;
      }
      case "wallet_addEthereumChain":
        return null;
      case "personal_sign": {
        const [data, address] = params as [Hex, Hex];
        if (address.toLowerCase() !== account.address.toLowerCase()) throw new Error("unknown account");
        return account.signMessage({ message: { raw: data } });
      }
      case "eth_sendTransaction": {
        if (chainId !== o.chainId) throw new Error("wallet is on another chain");
        const tx = params[0] as { to?: Hex; data?: Hex; value?: Hex; gas?: Hex };
        return walletClient.sendTransaction({
          chain: null,
          to: tx.to,
          data: tx.data,
          value: tx.value ? BigInt(tx.value) : undefined,
          gas: tx.gas ? BigInt(tx.gas) : undefined,
        });
      }
      default:
        return publicClient.request({ method: method as never, params: params as never });
    }
  });

  await page.addInitScript(() => {
    type Listener = (...args: unknown[]) => void;
    const listeners = new Map<string, Listener[]>();
    const emit = (event: string, ...args: unknown[]) => {
      for (const fn of listeners.get(event) ?? []) fn(...args);
    };
    // The binding exposed by page.exposeFunction, looked up at call time.
    const forward = (method: string, params: unknown[]) => {
      const binding = (
        window as unknown as { __diginoorTestWallet?: (m: string, p: unknown[]) => Promise<unknown> }
      ).__diginoorTestWallet;
      if (!binding) throw new Error("test wallet binding missing");
      return binding(method, params);
    };
    const provider = {
      async request({ method, params }: { method: string; params?: unknown[] }) {
        const result = await forward(method, params ?? []);
        if (method === "wallet_switchEthereumChain") {
          emit("chainChanged", (params?.[0] as { chainId?: string } | undefined)?.chainId);
        }
        return result;
      },
      on(event: string, fn: Listener) {
        listeners.set(event, [...(listeners.get(event) ?? []), fn]);
        return provider;
      },
      removeListener(event: string, fn: Listener) {
        listeners.set(
          event,
          (listeners.get(event) ?? []).filter((f) => f !== fn),
        );
        return provider;
      },
    };
    const info = Object.freeze({
      uuid: "6f1c2a4e-6b8e-4a53-9b7f-2f7e0d7c1a11",
      name: "Diginoor Test Wallet",
      rdns: "dev.diginoor.testwallet",
      icon: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect width='32' height='32' rx='8' fill='%23e9b949'/%3E%3Cpath d='M8 11h16v12H8z' fill='%231d1403'/%3E%3C/svg%3E",
    });
    const announce = () =>
      window.dispatchEvent(
        new CustomEvent("eip6963:announceProvider", { detail: Object.freeze({ info, provider }) }),
      );
    window.addEventListener("eip6963:requestProvider", announce);
    announce();
  });

  return { address: account.address, calls };
}

/** Installs the test wallet and links it on the wallet page (Sign-In with Ethereum), as a fan does. */
export async function linkTestWallet(page: Page, o: TestWalletOptions): Promise<TestWallet> {
  const wallet = await installTestWallet(page, o);
  await page.goto("/wallet");
  await page.getByRole("button", { name: "Diginoor Test Wallet" }).click();
  await page.getByRole("button", { name: "Link this wallet" }).click();
  await expect(page.getByTestId("wallet-linked")).toContainText("receives your purchases");
  return wallet;
}
