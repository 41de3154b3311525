// @vitest-environment happy-dom
// The wallet's passkeys and "Remove" (a lost device's passkey): the only passkey cannot be removed; Remove
// asks Yes/No naming the passkey, then this device's passkey signs the account's removePasskey (the
// bundler path, stubbed here) and only then the server is told; a cancelled prompt or a refusal shows in
// the passkey's row, and a retry after the chain step only tells the server.
import type { ChainInfo } from "@diginoor/api/chain";
import { type Wallet, walletMessages as m } from "@diginoor/api/wallets";
import { diginoorPasskeyAccountAbi } from "@diginoor/contracts/generated/diginoorPasskeyAccount";
import { cleanup, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { decodeFunctionData, type Hex } from "viem";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { apiError, fakeApi, renderPage } from "../../test/fake-api.tsx";
import { passkeyProblemCopy } from "../../lib/wallet/passkey-errors.ts";
import { PasskeyList } from "./PasskeyList.tsx";
import { codeOf } from "./passkey-calls.ts";

const passkey = vi.hoisted(() => ({
  send: vi.fn(async (..._args: unknown[]) => "0xabc" as `0x${string}`),
  here: vi.fn((): string[] => []),
}));
vi.mock("../../lib/wallet/passkey.ts", () => ({
  sendFromPasskeyWallet: passkey.send,
  passkeysOfThisDevice: passkey.here,
}));

const info = {
  enabled: true,
  chainId: 31337,
  accountFactory: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0",
  paymaster: "0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9",
  bundlerUrl: "/api/v1/bundler",
} as ChainInfo;

// Two P-256 public keys (x || y): the generator point G and 2G.
const KEY_1 =
  "0x6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c2964fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5";
const KEY_2 =
  "0x7cf27b188d034f7e8a52380304b51ac3c08969e277f21b35a60b48fc4766997807775510db8ed040293d9ac69f7430dbba7dade63ce982299e04b79d227873d1";
const ADDRESS = "0x1111111111111111111111111111111111111111";

function walletOf(n: 1 | 2): Wallet {
  const passkeys = [
    { credentialId: "cred-1", publicKey: KEY_1, addedAt: "2026-11-20T10:00:00.000Z" },
    { credentialId: "cred-2", publicKey: KEY_2, addedAt: "2026-11-24T10:00:00.000Z" },
  ].slice(0, n);
  return {
    address: ADDRESS,
    kind: "passkey",
    passkey: { credentialId: "cred-1", publicKey: KEY_1 },
    passkeys,
    receivesPurchases: true,
    chainId: 31337,
    linkedAt: "2026-11-20T10:00:00.000Z",
    guardian: null,
  };
}

const removedPath = `/api/v1/wallets/${ADDRESS}/passkeys/cred-2/removed`;

beforeEach(() => {
  passkey.send.mockClear();
  passkey.here.mockReturnValue(["cred-1"]);
});
afterEach(cleanup);

describe("the wallet's passkeys", () => {
  it("the only passkey has no Remove and says why", async () => {
    const sent = fakeApi({});
    renderPage(<PasskeyList info={info} wallet={walletOf(1)} busy={false} onRemoved={async () => {}} />);
    const row = screen.getByTestId("passkey-row");
    expect(row.textContent).toContain("First passkey");
    expect(row.textContent).toContain("This device");
    expect(row.textContent).toContain(`code ${codeOf(KEY_1)}`);
    expect(codeOf(KEY_1)).toMatch(/^\d{3} \d{3}$/);
    expect(screen.queryByRole("button", { name: /Remove/ })).toBeNull();
    expect(screen.getByTestId("only-passkey").textContent).toBe(m.passkeyOnlyOne);
    expect(sent).toHaveLength(0);
  });

  it("Remove asks first naming the passkey; No does nothing; Yes signs removePasskey, then tells the server", async () => {
    const user = userEvent.setup();
    const sent = fakeApi({ [`POST ${removedPath}`]: () => ({ status: 204 }) });
    const onRemoved = vi.fn(async () => {});
    renderPage(<PasskeyList info={info} wallet={walletOf(2)} busy={false} onRemoved={onRemoved} />);
    const rows = screen.getAllByTestId("passkey-row");
    expect(rows[1]!.textContent).not.toContain("This device");
    expect(within(rows[0]!).queryByRole("button", { name: "Remove First passkey" })).toBeTruthy();

    await user.click(screen.getByRole("button", { name: "Remove Passkey 2" }));
    let dialog = screen.getByRole("dialog", { name: "Remove a passkey" });
    expect(dialog.textContent).toContain("Passkey 2");
    expect(dialog.textContent).toContain(codeOf(KEY_2));
    await user.click(within(dialog).getByRole("button", { name: "No" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(passkey.send).not.toHaveBeenCalled();

    await user.click(screen.getByRole("button", { name: "Remove Passkey 2" }));
    dialog = screen.getByRole("dialog", { name: "Remove a passkey" });
    await user.click(within(dialog).getByRole("button", { name: "Yes" }));
    await waitFor(() => expect(onRemoved).toHaveBeenCalled());
    expect(passkey.send).toHaveBeenCalledTimes(1);
    const [, wallet, calls] = passkey.send.mock.calls[0] as [unknown, Wallet, { to: string; data: Hex }[]];
    expect(wallet.address).toBe(ADDRESS);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.to).toBe(ADDRESS);
    const call = decodeFunctionData({ abi: diginoorPasskeyAccountAbi, data: calls[0]!.data });
    expect(call.functionName).toBe("removePasskey");
    expect(call.args).toEqual([`0x${KEY_2.slice(2, 66)}`, `0x${KEY_2.slice(66)}`]);
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual([`POST ${removedPath}`]);
    expect(await screen.findByText(m.passkeyRemoved)).toBeTruthy();
  });

  it("warns when removing this device's own passkey", async () => {
    const user = userEvent.setup();
    passkey.here.mockReturnValue(["cred-2"]);
    fakeApi({});
    renderPage(<PasskeyList info={info} wallet={walletOf(2)} busy={false} onRemoved={async () => {}} />);
    await user.click(screen.getByRole("button", { name: "Remove Passkey 2" }));
    expect(screen.getByRole("dialog").textContent).toContain("this device can no longer use the wallet");
  });

  it("a cancelled passkey prompt shows in the row and tells the server nothing", async () => {
    const user = userEvent.setup();
    passkey.send.mockRejectedValueOnce(
      Object.assign(new Error("The operation either timed out or was not allowed"), {
        name: "NotAllowedError",
      }),
    );
    const sent = fakeApi({});
    renderPage(<PasskeyList info={info} wallet={walletOf(2)} busy={false} onRemoved={async () => {}} />);
    await user.click(screen.getByRole("button", { name: "Remove Passkey 2" }));
    await user.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Yes" }));
    const row = screen.getAllByTestId("passkey-row")[1]!;
    const alert = await within(row).findByRole("alert");
    // Plain words, never the browser's text (issue 35 item 2).
    expect(alert.textContent).toBe(passkeyProblemCopy.cancelled);
    expect(sent).toHaveLength(0);
  });

  it("the server's refusal shows in the row; a retry does not sign again, it only tells the server", async () => {
    const user = userEvent.setup();
    let answer = apiError(409, "conflict", m.passkeyStillOnChain);
    const sent = fakeApi({ [`POST ${removedPath}`]: () => answer });
    const onRemoved = vi.fn(async () => {});
    renderPage(<PasskeyList info={info} wallet={walletOf(2)} busy={false} onRemoved={onRemoved} />);
    await user.click(screen.getByRole("button", { name: "Remove Passkey 2" }));
    await user.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Yes" }));
    const row = screen.getAllByTestId("passkey-row")[1]!;
    expect((await within(row).findByRole("alert")).textContent).toBe(m.passkeyStillOnChain);
    answer = { status: 204 };
    await user.click(screen.getByRole("button", { name: "Remove Passkey 2" }));
    await user.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Yes" }));
    await waitFor(() => expect(onRemoved).toHaveBeenCalled());
    expect(passkey.send).toHaveBeenCalledTimes(1);
    expect(sent.filter((r) => r.path === removedPath)).toHaveLength(2);
  });
});
