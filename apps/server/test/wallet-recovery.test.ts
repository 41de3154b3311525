/**
 * Recovery of a passkey wallet whose every passkey is lost (decisions 160, 185), on anvil with the real bundler
 * (Alto) and our paymaster: the fan asks for a mailed link, confirms it with a new passkey and their recovery
 * code (whose key, the wallet's guardian, signs the proposal in the browser), our relayer key sends that
 * signed proposal on chain (deploying the account first if it was never used), notices go out
 * at the start and a day before it can complete, and 7 days later the new passkey signs while the old one
 * is refused. A passkey of the wallet cancels a recovery it did not ask for (a sponsored user operation);
 * the fan hears of it and the proposed passkey never signs.
 */
import { walletMessages as m } from "@diginoor/api/wallets";
import { ANVIL_PRIVATE_KEYS } from "@diginoor/contracts/anvil-accounts";
import { type BundlerInstance, startBundler } from "@diginoor/contracts/bundler";
import { diginoorAccountFactoryAbi } from "@diginoor/contracts/generated/diginoorAccountFactory";
import { diginoorCollectibleAbi } from "@diginoor/contracts/generated/diginoorCollectible";
import { diginoorPasskeyAccountAbi } from "@diginoor/contracts/generated/diginoorPasskeyAccount";
import {
  bundlerFeesPerGas,
  diginoorPaymasterFields,
  passkeyCoordinates,
  toPasskeyAccount,
} from "@diginoor/contracts/passkey-account";
import {
  newRecoveryCode,
  recoveryCodeGuardian,
  signRecoveryWithCode,
} from "@diginoor/contracts/recovery-code";
import { createSoftwarePasskey, type SoftwarePasskey } from "@diginoor/contracts/software-passkey";
import {
  type Address,
  type Chain,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  type Hex,
  http,
  type PublicClient,
  type Transport,
} from "viem";
import { type BundlerClient, createBundlerClient, type SmartAccount } from "viem/account-abstraction";
import { privateKeyToAccount } from "viem/accounts";
import { estimateFeesPerGas } from "viem/actions";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newSignedInUser } from "./factories.ts";
import { mailbox } from "./fixtures/accounts.ts";
import { passkeyAssertionBody } from "./fixtures/passkeys.ts";
import { sponsorAsItsFan } from "./fixtures/sponsor.ts";
import { createTestApp, type TestApp } from "./harness.ts";

const ORIGIN = "http://localhost:3000";
const RELAYER_KEY = ANVIL_PRIVATE_KEYS[6] as Hex;

let t: TestApp;
let bundler: BundlerInstance;
let bc: BundlerClient;
let pc: PublicClient<Transport, Chain>;

beforeAll(async () => {
  t = await createTestApp(
    { PUBLIC_URL: ORIGIN, RECOVERY_RELAYER_PRIVATE_KEY: RELAYER_KEY, DEV_MAILBOX: "true" },
    { chain: true },
  );
  pc = createPublicClient({ chain: foundry, transport: http(t.ctx.chain!.rpcUrl) }) as PublicClient<
    Transport,
    Chain
  >;
  bundler = await startBundler({
    rpcUrl: t.ctx.chain!.rpcUrl,
    executorPrivateKey: ANVIL_PRIVATE_KEYS[7],
    utilityPrivateKey: ANVIL_PRIVATE_KEYS[8],
  });
  bc = createBundlerClient({
    client: pc,
    transport: http(bundler.url, { timeout: 60_000 }),
    pollingInterval: 100,
    // Fees as the web app takes them (the bundler's quote): the server sponsors fees near it only.
    userOperation: {
      estimateFeesPerGas: ({ bundlerClient: b }) =>
        bundlerFeesPerGas(b as never, () => estimateFeesPerGas(pc)),
    },
  });
}, 180_000);
afterAll(async () => {
  await bundler?.stop();
  await t?.close();
});

const inject = (method: "GET" | "POST", url: string, cookie: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

/** The link body of `passkey` (its assertion over a fresh wallet nonce), as the web app sends it. */
async function proof(cookie: string, passkey: SoftwarePasskey) {
  const nonce = (await inject("POST", "/api/v1/wallets/nonce", cookie)).json().nonce as string;
  return passkeyAssertionBody(passkey, nonce);
}

/** A signed-in fan with a linked passkey wallet of a new passkey, its guardian their new recovery code's key. */
async function fanWithPasskeyWallet() {
  const { cookie, user } = await newSignedInUser(t.ctx);
  const passkey = createSoftwarePasskey({ origin: ORIGIN });
  const code = newRecoveryCode();
  const guardian = recoveryCodeGuardian(code)!;
  const res = await inject("POST", "/api/v1/wallets/passkey", cookie, {
    ...(await proof(cookie, passkey)),
    guardian,
  });
  expect(res.statusCode, res.body).toBe(201);
  const address = res.json().address as Address;
  guardians.set(address, guardian);
  return { cookie, email: user.email, passkey, code, guardian, address };
}

/** The guardian's signature of `newPasskey` for the fan's wallet, as the browser makes it from the code. */
async function codeSignature(
  fan: { address: Address; code: string },
  newPasskey: SoftwarePasskey,
  code = fan.code,
) {
  const deployed = await pc.getCode({ address: fan.address });
  const nonce = deployed
    ? await pc.readContract({
        address: fan.address,
        abi: diginoorPasskeyAccountAbi,
        functionName: "recoveryNonce",
      })
    : 0n;
  return signRecoveryWithCode({
    code,
    account: fan.address,
    chainId: pc.chain.id,
    newPublicKey: newPasskey.publicKey,
    nonce,
  });
}

/** Guardians of the fans' wallets (part of a wallet's first user operation's initCode). */
const guardians = new Map<Address, Address>();
const accountOf = (passkey: SoftwarePasskey, address: Address) =>
  toPasskeyAccount({
    client: pc,
    factory: t.ctx.chain!.wallets!.accountFactory,
    owner: passkey.account,
    address,
    guardian: guardians.get(address),
  });

/**
 * One user operation through the bundler with our paymaster paying (the chain's day). Right after the
 * chain's clock moved, the development bundler (which reads the chain's time every 200 ms) may still refuse
 * it as not valid yet: it is sent again then, for up to 10 s (as packages/contracts' passkey test does).
 */
async function sponsored(account: SmartAccount, calls: { to: Address; data: Hex }[]) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      const paymaster = t.ctx.chain!.wallets!.paymaster;
      const hash = await bc.sendUserOperation({
        account,
        calls,
        // The server's sponsorship, as POST /api/v1/paymaster gives it to the wallet's fan.
        paymaster: diginoorPaymasterFields(paymaster, sponsorAsItsFan(t, bundler.url)),
      });
      const r = await bc.waitForUserOperationReceipt({ hash, timeout: 60_000 });
      expect(r.success).toBe(true);
      return r;
    } catch (err) {
      if (
        Date.now() > deadline ||
        !/not valid yet/i.test(String((err as { details?: string }).details ?? err))
      )
        throw err;
      await new Promise((done) => setTimeout(done, 250));
    }
  }
}
const approveMarketplace = () => ({
  to: t.ctx.chain!.deployment.collectible,
  data: encodeFunctionData({
    abi: diginoorCollectibleAbi,
    functionName: "setApprovalForAll",
    args: [t.ctx.chain!.deployment.marketplace, true],
  }),
});
const self = (address: Address, functionName: "cancelRecovery") => ({
  to: address,
  data: encodeFunctionData({ abi: diginoorPasskeyAccountAbi, functionName, args: [] }),
});

async function refused(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return `${(err as Error).message} ${String((err as { details?: string }).details ?? "")}`;
  }
  throw new Error("expected the bundler to refuse the user operation");
}

/** The wallet's passkeys on chain, as [qx, qy] (one passkey in these tests: the account's first, or the recovered one). */
const signerOf = async (address: Address) => {
  const [xs, ys] = await pc.readContract({
    address,
    abi: diginoorPasskeyAccountAbi,
    functionName: "passkeys",
  });
  expect(xs).toHaveLength(1);
  return [xs[0], ys[0]] as [Hex, Hex];
};
const mailsTo = async (to: string) => (await mailbox(t.app)).filter((x) => x.to === to);
const recoveryNotices = async (cookie: string) =>
  (
    (await inject("GET", "/api/v1/notifications", cookie)).json().items as {
      kind: string;
      text: string;
      link?: string;
    }[]
  ).filter((n) => n.kind === "wallet_recovery");
/**
 * The notices of the recovery we relay (the start, with its date; the reminder), apart from the chain
 * watcher's notice of the same proposal, which reaches the bell as well, when the indexer reaches its block.
 */
const relayNotices = async (cookie: string) =>
  (await recoveryNotices(cookie)).filter((n) => !n.link?.startsWith("/wallet?cancelRecovery="));
async function moveChainTime(seconds: number) {
  await pc.request({ method: "evm_increaseTime" as never, params: [seconds] as never });
  await pc.request({ method: "evm_mine" as never, params: [] as never });
}

/** Starts a recovery of the fan's wallet and confirms the mailed link with `newPasskey` and the recovery code. */
async function recover(
  fan: Awaited<ReturnType<typeof fanWithPasskeyWallet>>,
  newPasskey: SoftwarePasskey,
  code = fan.code,
) {
  const started = await inject("POST", "/api/v1/wallets/recovery", fan.cookie, { address: fan.address });
  expect(started.statusCode, started.body).toBe(202);
  expect(started.json().sentTo).toBe(fan.email);
  const link = (await mailsTo(fan.email)).find((x) => x.subject === "Recover your Diginoor passkey wallet");
  const token = link?.links.find((l) => l.includes("/wallet/recover/"))?.split("/wallet/recover/")[1];
  expect(token).toBeTruthy();
  return inject("POST", "/api/v1/wallets/recovery/confirm", fan.cookie, {
    ...(await proof(fan.cookie, newPasskey)),
    token,
    guardian: fan.guardian,
    guardianSignature: await codeSignature(fan, newPasskey, code),
  });
}

describe("recovering a passkey wallet whose every passkey is lost", () => {
  it("a mailed link, a new passkey and the recovery code: our relayer sends the code's signed proposal, notices at the start and a day before, and 7 days later the new passkey signs and the old one is refused", async () => {
    const fan = await fanWithPasskeyWallet();
    // Never used: no code at the wallet's address yet.
    expect(await pc.getCode({ address: fan.address })).toBeUndefined();
    const newPasskey = createSoftwarePasskey({ origin: ORIGIN });
    const chainNow = Number((await pc.getBlock()).timestamp);
    const confirmed = await recover(fan, newPasskey);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({ address: fan.address, state: "proposed" });
    const executableAt = Date.parse(confirmed.json().executableAt) / 1000;
    expect(executableAt - chainNow).toBeGreaterThanOrEqual(7 * 86_400);
    expect(executableAt - chainNow).toBeLessThan(7 * 86_400 + 120);
    // On chain: the account deployed by our relayer for the old passkey and the code's guardian, the new one
    // pending, proposed by that guardian.
    const { qx, qy } = passkeyCoordinates(newPasskey.publicKey);
    const pending = (await pc.readContract({
      address: fan.address,
      abi: diginoorPasskeyAccountAbi,
      functionName: "pendingRecovery",
    })) as { qx: Hex; qy: Hex; executableAt: number; guardian: Address };
    expect([pending.qx, pending.qy, Number(pending.executableAt)]).toEqual([qx, qy, executableAt]);
    expect(pending.guardian).toBe(fan.guardian);
    expect(await signerOf(fan.address)).toEqual(Object.values(passkeyCoordinates(fan.passkey.publicKey)));
    // The start notice: by mail and in the bell.
    expect((await mailsTo(fan.email)).map((x) => x.subject)).toContain(
      "A recovery of your Diginoor passkey wallet has started",
    );
    expect(await relayNotices(fan.cookie)).toHaveLength(1);
    // A second recovery of the same wallet while this one runs: refused.
    const again = await inject("POST", "/api/v1/wallets/recovery", fan.cookie, { address: fan.address });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(m.recoveryPending);

    // Nothing to do yet; six days later the reminder, once.
    expect(await t.ctx.services.walletRecovery.followAll()).toEqual({ proposed: 1 });
    expect(await relayNotices(fan.cookie)).toHaveLength(1);
    await moveChainTime(6 * 86_400 + 3600);
    await t.ctx.services.walletRecovery.followAll();
    await t.ctx.services.walletRecovery.followAll();
    const reminders = (await mailsTo(fan.email)).filter(
      (x) => x.subject === "Your passkey wallet's recovery completes in a day",
    );
    expect(reminders).toHaveLength(1);
    expect(await relayNotices(fan.cookie)).toHaveLength(2);
    // Still the old passkey's until the delay is over: it signs (deploying nothing, the guardian did).
    await sponsored(await accountOf(fan.passkey, fan.address), [approveMarketplace()]);

    await moveChainTime(86_400);
    expect(await t.ctx.services.walletRecovery.followAll()).toEqual({ completed: 1 });
    expect(await signerOf(fan.address)).toEqual([qx, qy]);
    const wallets = (await inject("GET", "/api/v1/wallets", fan.cookie)).json().items;
    expect(wallets).toEqual([
      expect.objectContaining({
        address: fan.address,
        passkey: { credentialId: newPasskey.id, publicKey: newPasskey.publicKey.toLowerCase() },
      }),
    ]);
    expect((await mailsTo(fan.email)).map((x) => x.subject)).toContain("Your passkey wallet was recovered");
    // The new passkey signs a sponsored operation; the lost one is refused.
    await sponsored(await accountOf(newPasskey, fan.address), [approveMarketplace()]);
    expect(
      await refused(sponsored(await accountOf(fan.passkey, fan.address), [approveMarketplace()])),
    ).toMatch(/AA24 signature error|Invalid UserOperation signature/i);
    const list = (await inject("GET", "/api/v1/wallets/recovery", fan.cookie)).json().items;
    expect(list).toEqual([expect.objectContaining({ state: "completed" })]);
  }, 240_000);

  it("a passkey of the wallet cancels a recovery it did not ask for: the fan is told, the proposed passkey never signs", async () => {
    const fan = await fanWithPasskeyWallet();
    await sponsored(await accountOf(fan.passkey, fan.address), [approveMarketplace()]);
    const intruder = createSoftwarePasskey({ origin: ORIGIN });
    const confirmed = await recover(fan, intruder);
    expect(confirmed.json().state).toBe("proposed");
    // The fan's own passkey vetoes it (sponsored by our paymaster).
    await sponsored(await accountOf(fan.passkey, fan.address), [self(fan.address, "cancelRecovery")]);
    expect(await t.ctx.services.walletRecovery.followAll()).toEqual({ cancelled: 1 });
    expect((await mailsTo(fan.email)).map((x) => x.subject)).toContain(
      "The recovery of your passkey wallet was cancelled",
    );
    expect((await recoveryNotices(fan.cookie)).map((n) => n.text).join(" ")).toMatch(
      /cancelled its recovery/,
    );
    // Past the delay nothing completes: the proposal is gone from the account.
    await moveChainTime(8 * 86_400);
    expect(await t.ctx.services.walletRecovery.followAll()).toEqual({});
    expect(await signerOf(fan.address)).toEqual(Object.values(passkeyCoordinates(fan.passkey.publicKey)));
    expect(await refused(sponsored(await accountOf(intruder, fan.address), [approveMarketplace()]))).toMatch(
      /AA24 signature error|Invalid UserOperation signature/i,
    );
    // The wallet's passkey record is unchanged.
    const wallets = (await inject("GET", "/api/v1/wallets", fan.cookie)).json().items;
    expect(wallets[0].passkey.credentialId).toBe(fan.passkey.id);
  }, 240_000);

  it("refuses the link confirmed by another fan, a wrong token, another fan's wallet and a wallet that is not a passkey's", async () => {
    const fan = await fanWithPasskeyWallet();
    const other = await newSignedInUser(t.ctx);
    const started = await inject("POST", "/api/v1/wallets/recovery", fan.cookie, { address: fan.address });
    expect(started.statusCode, started.body).toBe(202);
    const link = (await mailsTo(fan.email)).find((x) => x.subject === "Recover your Diginoor passkey wallet");
    const token = link!.links.find((l) => l.includes("/wallet/recover/"))!.split("/wallet/recover/")[1];
    const passkey = createSoftwarePasskey({ origin: ORIGIN });
    const signed = { guardian: fan.guardian, guardianSignature: await codeSignature(fan, passkey) };
    const byOther = await inject("POST", "/api/v1/wallets/recovery/confirm", other.cookie, {
      ...(await proof(other.cookie, passkey)),
      token,
      ...signed,
    });
    expect(byOther.statusCode).toBe(400);
    expect(byOther.json().error.message).toBe(m.recoveryBadLink);
    const wrong = await inject("POST", "/api/v1/wallets/recovery/confirm", fan.cookie, {
      ...(await proof(fan.cookie, passkey)),
      token: `${token}x`,
      ...signed,
    });
    expect(wrong.statusCode).toBe(400);
    // Another recovery code (its key is not this wallet's guardian), or the right guardian named with a
    // signature of another key: refused before anything is sent.
    const otherCode = newRecoveryCode();
    for (const body of [
      {
        guardian: recoveryCodeGuardian(otherCode)!,
        guardianSignature: await codeSignature(fan, passkey, otherCode),
      },
      { guardian: fan.guardian, guardianSignature: await codeSignature(fan, passkey, otherCode) },
    ]) {
      const refusedCode = await inject("POST", "/api/v1/wallets/recovery/confirm", fan.cookie, {
        ...(await proof(fan.cookie, passkey)),
        token,
        ...body,
      });
      expect(refusedCode.statusCode, refusedCode.body).toBe(400);
      expect(refusedCode.json().error.message).toBe(m.recoveryNotGuardian);
    }
    // Another fan's wallet is not found, as any wallet that is not yours.
    const notTheirs = await inject("POST", "/api/v1/wallets/recovery", other.cookie, {
      address: fan.address,
    });
    expect(notTheirs.statusCode).toBe(404);
    const eoa = privateKeyToAccount(ANVIL_PRIVATE_KEYS[5] as Hex).address;
    await t.ctx.database.query(
      "INSERT INTO wallets (address, user_id, chain_id, receives_purchases, linked_at) VALUES ($1, $2, $3, false, now())",
      [eoa, other.user.id, t.ctx.chain!.chainId],
    );
    const notPasskey = await inject("POST", "/api/v1/wallets/recovery", other.cookie, { address: eoa });
    expect(notPasskey.statusCode).toBe(400);
    expect(notPasskey.json().error.message).toBe(m.recoveryNotPasskey);
    const rows = await t.ctx.database.query("SELECT state FROM wallet_recoveries WHERE address = $1", [
      fan.address,
    ]);
    expect(rows).toEqual([{ state: "requested" }]);
  }, 120_000);
});

describe("every recovery proposal on chain reaches the fan (decision 185)", () => {
  it("a proposal sent straight to the chain, not through us, reaches the fan's bell and mail within a minute, with the cancel link; the cancel works", async () => {
    const fan = await fanWithPasskeyWallet();
    const intruder = createSoftwarePasskey({ origin: ORIGIN });
    // Someone holding the code (or the fan on another site) relays the guardian's signature themselves.
    const sender = createWalletClient({
      account: privateKeyToAccount(ANVIL_PRIVATE_KEYS[4] as Hex),
      chain: foundry,
      transport: http(t.ctx.chain!.rpcUrl),
    });
    const [qx0, qy0] = Object.values(passkeyCoordinates(fan.passkey.publicKey)) as [Hex, Hex];
    await pc.waitForTransactionReceipt({
      hash: await sender.writeContract({
        address: t.ctx.chain!.wallets!.accountFactory,
        abi: diginoorAccountFactoryAbi,
        functionName: "createAccount",
        args: [qx0, qy0, fan.guardian],
      }),
    });
    const { qx, qy } = passkeyCoordinates(intruder.publicKey);
    const sentAt = Date.now();
    await pc.waitForTransactionReceipt({
      hash: await sender.writeContract({
        address: fan.address,
        abi: diginoorPasskeyAccountAbi,
        functionName: "proposeRecoveryWithSignature",
        args: [qx, qy, await codeSignature(fan, intruder)],
      }),
    });
    // No row of ours: only the indexer can know. The bell, then the mail (never unsubscribable).
    let bell: { kind: string; text: string; link?: string }[] = [];
    let mail: Awaited<ReturnType<typeof mailsTo>> = [];
    while (Date.now() - sentAt < 60_000) {
      bell = await recoveryNotices(fan.cookie);
      mail = (await mailsTo(fan.email)).filter(
        (x) => x.subject === "A recovery of your Diginoor wallet was proposed",
      );
      if (bell.length && mail.length) break;
      await new Promise((done) => setTimeout(done, 250));
    }
    expect(Date.now() - sentAt).toBeLessThan(60_000);
    expect(bell).toHaveLength(1);
    expect(bell[0]!.text).toMatch(/recovery of your passkey wallet .*was proposed.*cancel it now/i);
    expect(bell[0]!.link).toBe(`/wallet?cancelRecovery=${fan.address}`);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.links.some((l) => l.endsWith(`/wallet?cancelRecovery=${fan.address}`))).toBe(true);
    expect(
      await t.ctx.database.query("SELECT 1 FROM wallet_recoveries WHERE address = $1", [fan.address]),
    ).toEqual([]);
    // The one-tap cancel is a sponsored user operation of any passkey of the wallet.
    await sponsored(await accountOf(fan.passkey, fan.address), [self(fan.address, "cancelRecovery")]);
    const pending = (await pc.readContract({
      address: fan.address,
      abi: diginoorPasskeyAccountAbi,
      functionName: "pendingRecovery",
    })) as { executableAt: number };
    expect(Number(pending.executableAt)).toBe(0);
  }, 120_000);

  it("relays at most RECOVERY_RELAYS_PER_MONTH recoveries of one wallet per calendar month", async () => {
    const fan = await fanWithPasskeyWallet();
    await sponsored(await accountOf(fan.passkey, fan.address), [approveMarketplace()]);
    for (let i = 0; i < 3; i++) {
      const confirmed = await recover(fan, createSoftwarePasskey({ origin: ORIGIN }));
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      // Under load the relayer's proposal may still be on its way ("proposing"); it is on chain before the
      // fan cancels it (a CI run's PGlite pass answered "proposing" once).
      expect(["proposing", "proposed"]).toContain(confirmed.json().state);
      await expect
        .poll(
          async () =>
            Number(
              (
                (await pc.readContract({
                  address: fan.address,
                  abi: diginoorPasskeyAccountAbi,
                  functionName: "pendingRecovery",
                })) as { executableAt: number }
              ).executableAt,
            ),
          { timeout: 30_000 },
        )
        .toBeGreaterThan(0);
      await sponsored(await accountOf(fan.passkey, fan.address), [self(fan.address, "cancelRecovery")]);
      await t.ctx.services.walletRecovery.followAll();
    }
    const fourth = await recover(fan, createSoftwarePasskey({ origin: ORIGIN }));
    expect(fourth.statusCode, fourth.body).toBe(409);
    expect(fourth.json().error.message).toBe(m.recoveryMonthlyLimit);
  }, 240_000);
});

describe("a passkey of another device (decision 171)", () => {
  const requests = (address: Address) => `/api/v1/wallets/${address}/passkey-requests`;
  const addPasskey = (address: Address, p: SoftwarePasskey) => ({
    to: address,
    data: encodeFunctionData({
      abi: diginoorPasskeyAccountAbi,
      functionName: "addPasskey",
      args: halvesOf(p),
    }),
  });
  const removePasskey = (address: Address, p: SoftwarePasskey) => ({
    to: address,
    data: encodeFunctionData({
      abi: diginoorPasskeyAccountAbi,
      functionName: "removePasskey",
      args: halvesOf(p),
    }),
  });
  const halvesOf = (p: SoftwarePasskey) =>
    [`0x${p.publicKey.slice(2, 66)}`, `0x${p.publicKey.slice(66)}`] as readonly [Hex, Hex];

  it("the new device asks, a passkey of the wallet adds it on chain, the server records it only then; the new passkey signs", async () => {
    const fan = await fanWithPasskeyWallet();
    const phone = createSoftwarePasskey({ origin: ORIGIN });
    const asked = await inject("POST", requests(fan.address), fan.cookie, await proof(fan.cookie, phone));
    expect(asked.statusCode, asked.body).toBe(201);
    const request = asked.json();
    expect(request).toMatchObject({
      state: "pending",
      credentialId: phone.id,
      publicKey: phone.publicKey.toLowerCase(),
    });
    const listed = (await inject("GET", requests(fan.address), fan.cookie)).json().items;
    expect(listed.map((r: { id: string }) => r.id)).toEqual([request.id]);

    // Another fan sees nothing of it and cannot answer it.
    const other = await newSignedInUser(t.ctx);
    expect((await inject("GET", requests(fan.address), other.cookie)).statusCode).toBe(404);
    expect(
      (await inject("POST", `${requests(fan.address)}/${request.id}/added`, other.cookie)).statusCode,
    ).toBe(404);

    // Not on chain yet: the server records nothing.
    const early = await inject("POST", `${requests(fan.address)}/${request.id}/added`, fan.cookie);
    expect(early.statusCode).toBe(409);
    expect(early.json().error.message).toBe(m.passkeyNotOnChain);
    let wallets = (await inject("GET", "/api/v1/wallets", fan.cookie)).json().items;
    expect(wallets[0].passkeys).toHaveLength(1);

    // The first device's passkey adds it (a sponsored user operation that also deploys the account).
    await sponsored(await accountOf(fan.passkey, fan.address), [addPasskey(fan.address, phone)]);
    const added = await inject("POST", `${requests(fan.address)}/${request.id}/added`, fan.cookie);
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().state).toBe("added");
    wallets = (await inject("GET", "/api/v1/wallets", fan.cookie)).json().items;
    expect(wallets[0].passkey.credentialId).toBe(fan.passkey.id);
    expect(wallets[0].passkeys.map((p: { credentialId: string }) => p.credentialId)).toEqual([
      fan.passkey.id,
      phone.id,
    ]);
    // Answered once: again is a conflict.
    expect(
      (await inject("POST", `${requests(fan.address)}/${request.id}/added`, fan.cookie)).statusCode,
    ).toBe(409);
    // The phone's passkey signs for the wallet.
    await sponsored(
      await toPasskeyAccount({
        client: pc,
        factory: t.ctx.chain!.wallets!.accountFactory,
        owner: phone.account,
        address: fan.address,
        firstPublicKey: fan.passkey.publicKey,
      }),
      [approveMarketplace()],
    );
    // The same passkey cannot be asked for again.
    const again = await inject("POST", requests(fan.address), fan.cookie, await proof(fan.cookie, phone));
    expect(again.statusCode).toBe(409);
  }, 240_000);

  it("a lost device's passkey: removed on chain by another passkey of the wallet, the server forgets it only then; never for another fan", async () => {
    const fan = await fanWithPasskeyWallet();
    const removed = (who: string, credentialId: string) =>
      inject("POST", `/api/v1/wallets/${fan.address}/passkeys/${credentialId}/removed`, who);
    // Not deployed yet: its one passkey (the address's key) is the account's, whatever isPasskey would say.
    const undeployed = await removed(fan.cookie, fan.passkey.id);
    expect(undeployed.statusCode).toBe(409);
    expect(undeployed.json().error.message).toBe(m.passkeyStillOnChain);

    const phone = createSoftwarePasskey({ origin: ORIGIN });
    const asked = await inject("POST", requests(fan.address), fan.cookie, await proof(fan.cookie, phone));
    expect(asked.statusCode, asked.body).toBe(201);
    await sponsored(await accountOf(fan.passkey, fan.address), [addPasskey(fan.address, phone)]);
    const added = await inject("POST", `${requests(fan.address)}/${asked.json().id}/added`, fan.cookie);
    expect(added.statusCode, added.body).toBe(200);

    // The chain still has the phone's passkey: nothing is forgotten.
    const early = await removed(fan.cookie, phone.id);
    expect(early.statusCode).toBe(409);
    expect(early.json().error.message).toBe(m.passkeyStillOnChain);
    // Another fan cannot act on this wallet; an unknown credential is not found.
    const other = await newSignedInUser(t.ctx);
    expect((await removed(other.cookie, phone.id)).statusCode).toBe(404);
    const unknown = await removed(fan.cookie, "bm90LWEtcGFzc2tleQ");
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe(m.passkeyNotFound);

    // The phone is lost: the first device's passkey removes its key (a sponsored user operation).
    const receipt = await sponsored(await accountOf(fan.passkey, fan.address), [
      removePasskey(fan.address, phone),
    ]);
    expect(receipt.actualGasUsed).toBeGreaterThan(0n);
    expect(
      await pc.readContract({
        address: fan.address,
        abi: diginoorPasskeyAccountAbi,
        functionName: "isPasskey",
        args: halvesOf(phone),
      }),
    ).toBe(false);
    // Removed on chain, still not another fan's to record.
    expect((await removed(other.cookie, phone.id)).statusCode).toBe(404);
    const done = await removed(fan.cookie, phone.id);
    expect(done.statusCode, done.body).toBe(204);
    const [wallet] = (await inject("GET", "/api/v1/wallets", fan.cookie)).json().items;
    expect(wallet.passkeys.map((p: { credentialId: string }) => p.credentialId)).toEqual([fan.passkey.id]);
    expect(wallet.passkey.credentialId).toBe(fan.passkey.id);
    expect((await removed(fan.cookie, phone.id)).statusCode).toBe(404);
    // The first passkey is still on chain: it cannot be forgotten.
    expect((await removed(fan.cookie, fan.passkey.id)).statusCode).toBe(409);
    // The phone's passkey no longer signs for the wallet.
    const phoneAccount = await toPasskeyAccount({
      client: pc,
      factory: t.ctx.chain!.wallets!.accountFactory,
      owner: phone.account,
      address: fan.address,
      firstPublicKey: fan.passkey.publicKey,
    });
    expect(await refused(sponsored(phoneAccount, [approveMarketplace()]))).toMatch(/AA24|signature/i);
  }, 240_000);

  it("a request only ever touches the caller's own wallet: another fan's pending request of the same credential id stays pending (issue 34 point 7)", async () => {
    const fan = await fanWithPasskeyWallet();
    const phone = createSoftwarePasskey({ origin: ORIGIN });
    const asked = await inject("POST", requests(fan.address), fan.cookie, await proof(fan.cookie, phone));
    expect(asked.statusCode, asked.body).toBe(201);
    // An attacker with a passkey wallet of their own asks for their wallet with a passkey they hold, under the
    // credential id of the fan's pending request (a credential id is public: it is in every assertion, and
    // a hostile client's authenticator can name it consistently in all its answers).
    const attacker = await fanWithPasskeyWallet();
    const theirs = createSoftwarePasskey({ origin: ORIGIN, id: phone.id });
    const body = await proof(attacker.cookie, theirs);
    expect(body.credentialId).toBe(phone.id);
    const res = await inject("POST", requests(attacker.address), attacker.cookie, body);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error.message).toBe(m.passkeyKnown);
    const mine = (await inject("GET", requests(fan.address), fan.cookie)).json().items;
    expect(mine.map((r: { id: string; state: string }) => [r.id, r.state])).toEqual([
      [asked.json().id, "pending"],
    ]);
    expect((await inject("GET", requests(attacker.address), attacker.cookie)).json().items).toEqual([]);
  }, 240_000);

  it("a declined request can no longer be recorded, even if the key is added on chain later", async () => {
    const fan = await fanWithPasskeyWallet();
    const laptop = createSoftwarePasskey({ origin: ORIGIN });
    const asked = await inject("POST", requests(fan.address), fan.cookie, await proof(fan.cookie, laptop));
    expect(asked.statusCode, asked.body).toBe(201);
    const id = asked.json().id as string;
    const declined = await t.app.inject({
      method: "DELETE",
      url: `${requests(fan.address)}/${id}`,
      headers: { cookie: fan.cookie },
    });
    expect(declined.statusCode).toBe(204);
    expect((await inject("GET", requests(fan.address), fan.cookie)).json().items[0].state).toBe("declined");
    await sponsored(await accountOf(fan.passkey, fan.address), [addPasskey(fan.address, laptop)]);
    const late = await inject("POST", `${requests(fan.address)}/${id}/added`, fan.cookie);
    expect(late.statusCode).toBe(409);
    expect(late.json().error.message).toBe(m.passkeyRequestNotPending);
    // A wallet that is not a passkey wallet of the fan: 404.
    const stranger = await newSignedInUser(t.ctx);
    const res = await inject(
      "POST",
      requests(fan.address),
      stranger.cookie,
      await proof(stranger.cookie, laptop),
    );
    expect(res.statusCode).toBe(404);
  }, 240_000);
});
