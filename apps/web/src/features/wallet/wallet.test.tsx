// @vitest-environment happy-dom
// The wallet page as a fan uses it: without any wallet app it says the passkey wallet is enough; with a
// browser wallet (an EIP-1193 provider holding a real key) it connects and links by Sign-In with
// Ethereum, sending a message the server's nonce made and a signature that recovers to the wallet;
// linked wallets can be made the purchase destination and unlinked.
import type { ChainInfo } from "@diginoor/api/chain";
import type { Wallet } from "@diginoor/api/wallets";
import { useQuery } from "@tanstack/react-query";
import { cleanup, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { hexToString, type Hex, verifyMessage } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { parseSiweMessage } from "viem/siwe";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeApi, renderPage, type SentRequest } from "../../test/fake-api.tsx";
import { Wallets } from "./Wallet.tsx";

// The chain's RPC (balances): a JSON-RPC endpoint answering every read with zero.
beforeEach(() => {
  vi.stubGlobal("fetch", async (_url: string, init?: RequestInit) => {
    const call = JSON.parse(String(init?.body)) as { id: number } | { id: number }[];
    const answer = (c: { id: number }) => ({ jsonrpc: "2.0", id: c.id, result: "0x0" });
    return Response.json(Array.isArray(call) ? call.map(answer) : answer(call));
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  delete (window as { ethereum?: unknown }).ethereum;
});

const chain: ChainInfo = {
  enabled: true,
  chainId: 31337,
  rpcUrl: "http://127.0.0.1:9/",
  collectible: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
  marketplace: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
  chainName: "Local chain",
  nativeSymbol: "ETH",
  walletConnectProjectId: null,
  entryPoint: "0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108",
  accountFactory: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0",
  paymaster: "0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9",
  bundlerUrl: "/api/v1/bundler",
};

/** x || y of a passkey (64 bytes; the wallet page shows a pairing code of it). */
const PUBLIC_KEY =
  "0x11111111111111111111111111111111111111111111111111111111111111112222222222222222222222222222222222222222222222222222222222222222";

const passkeyWallet: Wallet = {
  address: "0x1111111111111111111111111111111111111111",
  kind: "passkey",
  passkey: { credentialId: "cred-1", publicKey: PUBLIC_KEY },
  passkeys: [{ credentialId: "cred-1", publicKey: PUBLIC_KEY, addedAt: "2026-11-20T10:00:00.000Z" }],
  receivesPurchases: true,
  chainId: 31337,
  linkedAt: "2026-11-20T10:00:00.000Z",
  guardian: null,
};

/** A wallet app's wallet linked by SIWE, beside the passkey wallet. */
const appWallet: Wallet = {
  ...passkeyWallet,
  address: "0x2222222222222222222222222222222222222222",
  kind: "siwe",
  passkey: null,
  receivesPurchases: false,
};

function Page({ info = chain }: { info?: ChainInfo }) {
  const query = useQuery({ queryKey: ["chain"], queryFn: () => info });
  return <Wallets chain={query} />;
}

/** The server's wallet endpoints over a list of linked wallets. */
function walletServer(items: Wallet[], tokensOf: Record<string, number> = {}) {
  const sent = fakeApi({
    ...Object.fromEntries(
      items.map((w) => [
        `GET /api/v1/accounts/${w.address}/tokens`,
        () => ({
          body: {
            items: Array.from({ length: tokensOf[w.address] ?? 0 }, (_, i) => ({
              tokenId: String(i + 1),
              owner: w.address,
            })),
          },
        }),
      ]),
    ),
    "GET /api/v1/wallets": () => ({ body: { items } }),
    "GET /api/v1/wallets/recovery": () => ({ body: { items: [] } }),
    ...Object.fromEntries(
      items.map((w) => [
        `GET /api/v1/wallets/${w.address}/passkey-requests`,
        () => ({ body: { items: [] } }),
      ]),
    ),
    "POST /api/v1/wallets/nonce": () => ({
      body: { nonce: "k3Jd8s0aQ1", chainId: 31337, domain: "localhost", uri: "http://localhost/wallet" },
    }),
    "POST /api/v1/wallets": (r) => {
      const { message } = r.body as { message: string };
      const address = parseSiweMessage(message).address as string;
      const wallet: Wallet = {
        address,
        kind: "siwe",
        passkey: null,
        passkeys: [],
        receivesPurchases: items.length === 0,
        chainId: 31337,
        linkedAt: "2026-11-26T10:00:00.000Z",
        guardian: null,
      };
      items.push(wallet);
      return { status: 201, body: wallet };
    },
    ...Object.fromEntries(
      items.map((w) => [
        `DELETE /api/v1/wallets/${w.address}`,
        () => {
          items.splice(items.indexOf(w), 1);
          return { status: 204 };
        },
      ]),
    ),
  });
  return sent;
}

/** A browser wallet (window.ethereum) holding a real key on chain 31337. */
function installBrowserWallet() {
  const account = privateKeyToAccount(generatePrivateKey());
  const provider = {
    isMetaMask: true,
    on: () => provider,
    removeListener: () => provider,
    async request({ method, params }: { method: string; params?: unknown[] }) {
      switch (method) {
        case "eth_requestAccounts":
        case "eth_accounts":
          return [account.address];
        case "eth_chainId":
          return "0x7a69";
        case "wallet_requestPermissions":
        case "wallet_getPermissions":
          return [{ parentCapability: "eth_accounts" }];
        case "personal_sign": {
          const [data] = params as [Hex, string];
          return account.signMessage({ message: hexToString(data) });
        }
        case "eth_getBalance":
          return "0x0";
        default:
          throw Object.assign(new Error(`unsupported ${method}`), { code: 4200 });
      }
    },
  };
  (window as { ethereum?: unknown }).ethereum = provider;
  return account;
}

const writes = (sent: SentRequest[]) => sent.filter((r) => r.method !== "GET");

describe("the wallet page", () => {
  it("without any wallet app, says the passkey wallet is enough and shows the fan's passkey wallet", async () => {
    walletServer([passkeyWallet]);
    renderPage(<Page />);
    expect(await screen.findByText("No wallet app found")).toBeTruthy();
    expect(screen.getByText(/You don't need one: your passkey wallet buys by card/)).toBeTruthy();
    expect((await screen.findByTestId("passkey-address")).textContent).toBe(passkeyWallet.address);
    const list = await screen.findByRole("list", { name: "Linked wallets" });
    expect(within(list).getByText("Passkey wallet")).toBeTruthy();
    expect(within(list).getByText("Receives purchases")).toBeTruthy();
  });

  it("a chain without the account factory offers no passkey wallet and asks for a wallet app", async () => {
    walletServer([]);
    renderPage(<Page info={{ ...chain, accountFactory: null }} />);
    expect(await screen.findByText(/Install MetaMask or another wallet extension/)).toBeTruthy();
    expect(screen.queryByRole("heading", { name: "Passkey wallet" })).toBeNull();
  });

  it("connects a browser wallet and links it with a SIWE message of the server's nonce, signed by that wallet", async () => {
    const account = installBrowserWallet();
    const sent = walletServer([passkeyWallet]);
    const user = userEvent.setup();
    renderPage(<Page />);
    await user.click(await screen.findByRole("button", { name: /Browser wallet|MetaMask|Injected/ }));
    await user.click(await screen.findByRole("button", { name: "Link this wallet" }));
    expect(await screen.findByTestId("wallet-linked")).toBeTruthy();

    const link = writes(sent).find((r) => r.path === "/api/v1/wallets");
    if (!link) throw new Error("the wallet was not linked");
    const { message, signature } = link.body as { message: string; signature: Hex };
    const siwe = parseSiweMessage(message);
    expect(siwe).toMatchObject({
      address: account.address,
      chainId: 31337,
      domain: "localhost",
      nonce: "k3Jd8s0aQ1",
      uri: "http://localhost/wallet",
    });
    expect(await verifyMessage({ address: account.address, message, signature })).toBe(true);
    // The nonce was asked for first, then the link: nothing else was written.
    expect(writes(sent).map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /api/v1/wallets/nonce",
      "POST /api/v1/wallets",
    ]);
    const list = screen.getByRole("list", { name: "Linked wallets" });
    await waitFor(() => expect(within(list).getByText(account.address)).toBeTruthy());
  });

  it("unlinking a wallet sends DELETE for that address and the list follows", async () => {
    const other = appWallet;
    const sent = walletServer([passkeyWallet, other]);
    const user = userEvent.setup();
    renderPage(<Page />);
    await user.click(await screen.findByRole("button", { name: `Unlink ${other.address}` }));
    // Asked first (issue 35 item 2): nothing is sent until the fan confirms.
    const dialog = await screen.findByRole("dialog", { name: "Unlink this wallet?" });
    expect(await within(dialog).findByTestId("unlink-holds")).toHaveProperty(
      "textContent",
      "No NFTs and no balance",
    );
    expect(writes(sent)).toEqual([]);
    await user.click(within(dialog).getByRole("button", { name: "Unlink" }));
    await waitFor(() => expect(screen.queryByText(other.address)).toBeNull());
    expect(writes(sent).map((r) => `${r.method} ${r.path}`)).toEqual([
      `DELETE /api/v1/wallets/${other.address}`,
    ]);
  });

  it("an external wallet holding NFTs says they leave the showcase; Keep it linked sends nothing", async () => {
    const other = appWallet;
    const sent = walletServer([passkeyWallet, other], { [other.address]: 3 });
    const user = userEvent.setup();
    renderPage(<Page />);
    await user.click(await screen.findByRole("button", { name: `Unlink ${other.address}` }));
    const dialog = await screen.findByRole("dialog", { name: "Unlink this wallet?" });
    await waitFor(() => expect(within(dialog).getByTestId("unlink-holds").textContent).toBe("3 NFTs"));
    expect(dialog.textContent).toMatch(/still holds 3 NFTs, but they will no longer show in your showcase/);
    await user.click(within(dialog).getByRole("button", { name: "Keep it linked" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(writes(sent)).toEqual([]);
  });

  it("a passkey wallet holding an NFT is not offered Unlink, and says what to do", async () => {
    const sent = walletServer([passkeyWallet], { [passkeyWallet.address]: 1 });
    const user = userEvent.setup();
    renderPage(<Page />);
    await user.click(await screen.findByRole("button", { name: `Unlink ${passkeyWallet.address}` }));
    const dialog = await screen.findByRole("dialog", { name: "This wallet can't be unlinked yet" });
    await waitFor(() => expect(within(dialog).getByTestId("unlink-holds").textContent).toBe("1 NFT"));
    expect(dialog.textContent).toMatch(/Send your NFTs and balance to another wallet first/);
    expect(within(dialog).queryByRole("button", { name: "Unlink" })).toBeNull();
    await user.click(within(dialog).getByRole("button", { name: "Got it" }));
    expect(writes(sent)).toEqual([]);
  });
});
