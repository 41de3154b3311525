/**
 * The verifying paymaster's server side (issue 34, decision 186) on anvil with the real bundler (Alto): the
 * server signs a sponsorship only for the signed-in fan's own passkey wallet, only for actions we sponsor
 * (a transfer only to another wallet of the fan), under the per-fan and global daily budgets; the bundler
 * proxy relays only the caller's own wallet's operations, with our paymaster or none, and refuses gas and
 * fees far above the bundler's.
 */
import { ANVIL_PRIVATE_KEYS } from "@diginoor/contracts/anvil-accounts";
import { type BundlerInstance, startBundler } from "@diginoor/contracts/bundler";
import { diginoorCollectibleAbi } from "@diginoor/contracts/generated/diginoorCollectible";
import {
  bundlerFeesPerGas,
  diginoorPaymasterFields,
  sponsorshipRequest,
  toPasskeyAccount,
} from "@diginoor/contracts/passkey-account";
import { createSoftwarePasskey, type SoftwarePasskey } from "@diginoor/contracts/software-passkey";
import {
  type Address,
  type Chain,
  createPublicClient,
  createWalletClient,
  custom,
  encodeFunctionData,
  type Hex,
  http,
  type PublicClient,
  parseEther,
  toHex,
  type Transport,
} from "viem";
import { type BundlerClient, createBundlerClient, type SmartAccount } from "viem/account-abstraction";
import { privateKeyToAccount } from "viem/accounts";
import { estimateFeesPerGas } from "viem/actions";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newSignedInUser } from "./factories.ts";
import { testSponsorship } from "./fixtures/sponsor.ts";
import { passkeyAssertionBody } from "./fixtures/passkeys.ts";
import { createTestApp, type TestApp } from "./harness.ts";

const ORIGIN = "http://localhost:3000";

let t: TestApp;
let bundler: BundlerInstance;
let pc: PublicClient<Transport, Chain>;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: ORIGIN, SPONSOR_FAN_DAILY_OPS: "6" }, { chain: true });
  pc = createPublicClient({ chain: foundry, transport: http(t.ctx.chain!.rpcUrl) }) as PublicClient<
    Transport,
    Chain
  >;
  bundler = await startBundler({
    rpcUrl: t.ctx.chain!.rpcUrl,
    executorPrivateKey: ANVIL_PRIVATE_KEYS[7],
    utilityPrivateKey: ANVIL_PRIVATE_KEYS[8],
  });
  // The server's bundler from now on (the proxy and the sponsorship read it when used).
  t.ctx.chain!.wallets!.bundlerUrl = bundler.url;
}, 180_000);
afterAll(async () => {
  await bundler?.stop();
  await t?.close();
});

const paymaster = () => t.ctx.chain!.wallets!.paymaster;
const collectible = () => t.ctx.chain!.deployment.collectible;

/** The bundler's JSON-RPC through our proxy as the fan's browser sends it; a refusal throws its message. */
function proxied(cookie: string) {
  let id = 0;
  return custom({
    async request({ method, params }) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/v1/bundler",
        headers: { cookie },
        payload: { jsonrpc: "2.0", id: ++id, method, params: params ?? [] },
      });
      const answer = res.json();
      if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${answer.error?.message ?? res.body}`);
      if (answer.error) throw new Error(answer.error.message);
      return answer.result;
    },
  });
}

/** POST /api/v1/paymaster as the fan's browser calls it; a refusal throws its status and message. */
const sponsorFor = (cookie: string) => async (op: Parameters<typeof sponsorshipRequest>[1]) => {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/v1/paymaster",
    headers: { cookie },
    payload: sponsorshipRequest(paymaster(), op),
  });
  if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.json().error?.message ?? res.body}`);
  return res.json().paymasterData as Hex;
};

function bundlerClient(cookie: string): BundlerClient {
  return createBundlerClient({
    client: pc,
    transport: proxied(cookie),
    pollingInterval: 100,
    userOperation: {
      estimateFeesPerGas: ({ bundlerClient: b }) =>
        bundlerFeesPerGas(b as never, () => estimateFeesPerGas(pc)),
    },
  });
}

async function linkPasskeyWallet(cookie: string, passkey: SoftwarePasskey): Promise<Address> {
  const nonce = (
    await t.app.inject({ method: "POST", url: "/api/v1/wallets/nonce", headers: { cookie } })
  ).json().nonce as string;
  const res = await t.app.inject({
    method: "POST",
    url: "/api/v1/wallets/passkey",
    headers: { cookie },
    payload: await passkeyAssertionBody(passkey, nonce),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().address as Address;
}

async function fan() {
  const { cookie, user } = await newSignedInUser(t.ctx);
  const passkey = createSoftwarePasskey({ origin: ORIGIN });
  const address = await linkPasskeyWallet(cookie, passkey);
  const account = await toPasskeyAccount({
    client: pc,
    factory: t.ctx.chain!.wallets!.accountFactory,
    owner: passkey.account,
    address,
  });
  return { cookie, userId: user.id, address, account, bc: bundlerClient(cookie) };
}

let order = 0;
/** A token minted to `to` by the server's minter key. */
async function mintTo(to: Address): Promise<bigint> {
  const minter = createWalletClient({
    account: t.ctx.chain!.minter!,
    chain: foundry,
    transport: http(t.ctx.chain!.rpcUrl),
  });
  const orderId = toHex(BigInt(Date.now()) * 1000n + BigInt(++order), { size: 32 });
  const nft = 900_000n + BigInt(order);
  // Each catalogue NFT's edition count is on chain (decision 184): one edition of a fresh one here.
  const counted = await minter.writeContract({
    address: collectible(),
    abi: diginoorCollectibleAbi,
    functionName: "setEditionCount",
    args: [nft, 1],
  });
  expect((await pc.waitForTransactionReceipt({ hash: counted })).status).toBe("success");
  const hash = await minter.writeContract({
    address: collectible(),
    abi: diginoorCollectibleAbi,
    functionName: "mintForOrder",
    args: [to, nft, 1, privateKeyToAccount(ANVIL_PRIVATE_KEYS[5]).address, orderId],
  });
  expect((await pc.waitForTransactionReceipt({ hash })).status).toBe("success");
  return BigInt(orderId);
}

const col = (functionName: string, args: readonly unknown[]) => ({
  to: collectible(),
  data: encodeFunctionData({ abi: diginoorCollectibleAbi, functionName, args } as never),
});

async function ownerOf(tokenId: bigint) {
  return pc.readContract({
    address: collectible(),
    abi: diginoorCollectibleAbi,
    functionName: "ownerOf",
    args: [tokenId],
  });
}

async function send(
  f: { bc: BundlerClient; account: SmartAccount; cookie: string },
  calls: { to: Address; data: Hex }[],
  extra: Record<string, unknown> = {},
) {
  const hash = await f.bc.sendUserOperation({
    account: f.account,
    calls,
    paymaster: diginoorPaymasterFields(paymaster(), sponsorFor(f.cookie)),
    ...extra,
  } as never);
  return f.bc.waitForUserOperationReceipt({ hash, timeout: 60_000 });
}

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => "accepted",
    (e: unknown) => {
      const err = e as Error & { details?: string; cause?: Error };
      return `${err.message} ${err.details ?? ""} ${err.cause?.message ?? ""}`;
    },
  );

describe("sponsorship by the server's signature", () => {
  it("sends to the fan's own other wallet, sponsored; elsewhere not sponsored, but relayed when the wallet pays", async () => {
    const a = await fan();
    const tokenId = await mintTo(a.address);
    const second = await linkPasskeyWallet(a.cookie, createSoftwarePasskey({ origin: ORIGIN }));
    const r = await send(a, [col("transferFrom", [a.address, second, tokenId])]);
    expect(r.success).toBe(true);
    expect(r.paymaster).toBe(paymaster());
    expect(await ownerOf(tokenId)).toBe(second);

    const token2 = await mintTo(a.address);
    const stranger = privateKeyToAccount(ANVIL_PRIVATE_KEYS[5]).address;
    expect(await refusal(send(a, [col("transferFrom", [a.address, stranger, token2])]))).toMatch(
      /400 We pay the gas of a transfer only to another wallet of your account/,
    );
    // safeTransferFrom (its receiver's hook) is no action of ours, even to the fan's own wallet.
    expect(await refusal(send(a, [col("safeTransferFrom", [a.address, second, token2])]))).toMatch(
      /The `validatePaymasterUserOp` function on the Paymaster reverted/,
    );
    // Paid by the fan: the wallet holds a little ETH and sends without our paymaster.
    await t.ctx.chain!.publicClient.request({
      method: "anvil_setBalance" as never,
      params: [a.address, toHex(parseEther("0.1"))] as never,
    });
    const hash = await a.bc.sendUserOperation({
      account: a.account,
      calls: [col("transferFrom", [a.address, stranger, token2])],
    });
    const own = await a.bc.waitForUserOperationReceipt({ hash, timeout: 60_000 });
    expect(own.success).toBe(true);
    expect(own.paymaster).toBeUndefined();
    expect(await ownerOf(token2)).toBe(stranger);
  });

  it("refuses to sponsor or relay an operation of another fan's wallet", async () => {
    const a = await fan();
    const b = await fan();
    // b asks the server to sponsor a's operation, then relays it through the proxy.
    const asB = { ...a, cookie: b.cookie, bc: b.bc };
    expect(
      await refusal(send(asB, [col("setApprovalForAll", [t.ctx.chain!.deployment.marketplace, true])])),
    ).toMatch(/not a passkey wallet of your account/);
    const { account: _a, ...op } = await a.bc.prepareUserOperation({
      account: a.account,
      calls: [col("setApprovalForAll", [t.ctx.chain!.deployment.marketplace, true])],
      paymaster: diginoorPaymasterFields(paymaster(), sponsorFor(a.cookie)),
    });
    const signature = await a.account.signUserOperation(op as never);
    const entryPointAddress = t.ctx.chain!.wallets!.entryPoint;
    expect(await refusal(b.bc.sendUserOperation({ ...op, signature, entryPointAddress } as never))).toMatch(
      /not a passkey wallet of your account/,
    );
    expect(await pc.getCode({ address: a.address })).toBeUndefined();
    // The same operation from its own fan goes through.
    const hash = await a.bc.sendUserOperation({ ...op, signature, entryPointAddress } as never);
    expect((await a.bc.waitForUserOperationReceipt({ hash, timeout: 60_000 })).success).toBe(true);
  });

  it("refuses fees and gas far above the bundler's, in a sponsorship and in the proxy", async () => {
    const a = await fan();
    const calls = [col("setApprovalForAll", [t.ctx.chain!.deployment.marketplace, true])];
    // 30 gwei against the local quote of about 1 gwei.
    const inflated = { maxFeePerGas: 30_000_000_000n, maxPriorityFeePerGas: 30_000_000_000n };
    expect(await refusal(send(a, calls, inflated))).toMatch(
      /400 maxFeePerGas \d+ is above 2 times the network's price/,
    );
    expect(await refusal(send(a, calls, { preVerificationGas: 2_000_000n }))).toMatch(
      /400 preVerificationGas 2000000 is above the bundler's estimate/,
    );
    // Self-paid, the proxy asks the same of fees and gas.
    await t.ctx.chain!.publicClient.request({
      method: "anvil_setBalance" as never,
      params: [a.address, toHex(parseEther("1"))] as never,
    });
    expect(await refusal(a.bc.sendUserOperation({ account: a.account, calls, ...inflated }))).toMatch(
      /maxFeePerGas \d+ is above 2 times the network's price/,
    );
    expect(
      await refusal(a.bc.sendUserOperation({ account: a.account, calls, callGasLimit: 3_000_000n })),
    ).toMatch(/callGasLimit 3000000 is above the bundler's estimate/);
    expect(await pc.getCode({ address: a.address })).toBeUndefined();
  });

  it("keeps the per-fan daily budget (a re-signed operation counts once) and the global one", async () => {
    const a = await fan();
    const tokenId = await mintTo(a.address);
    const second = await linkPasskeyWallet(a.cookie, createSoftwarePasskey({ origin: ORIGIN }));
    const approve = [col("setApprovalForAll", [t.ctx.chain!.deployment.marketplace, true])];
    // The same operation prepared twice (the sponsorship asked twice) counts once.
    const { account: _x, ...op } = await a.bc.prepareUserOperation({
      account: a.account,
      calls: approve,
      paymaster: diginoorPaymasterFields(paymaster(), sponsorFor(a.cookie)),
    });
    await sponsorFor(a.cookie)(op as never);
    const [row] = await t.ctx.database.query<{ n: string }>(
      "SELECT count(*)::text AS n FROM sponsorships WHERE user_id = $1",
      [a.userId],
    );
    expect(row?.n).toBe("1");
    // SPONSOR_FAN_DAILY_OPS is 6 in this file: five more operations (other nonce keys), then the seventh
    // is refused.
    for (let i = 0; i < 5; i++)
      await sponsorFor(a.cookie)({ ...(op as object), nonce: BigInt(i + 1) << 64n } as never);
    expect(await refusal(send(a, [col("transferFrom", [a.address, second, tokenId])]))).toMatch(
      /429 Today's free transactions of your account are used up/,
    );
    // The global budget: a service whose day allows less than one operation refuses any fan.
    const b = await fan();
    const tight = testSponsorship(t, bundler.url, {
      fanDailyOps: 100,
      fanDailyWei: 10n ** 20n,
      globalDailyWei: 1n,
    });
    const { account: _y, ...opB } = await b.bc.prepareUserOperation({
      account: b.account,
      calls: approve,
      paymaster: diginoorPaymasterFields(paymaster(), sponsorFor(b.cookie)),
    });
    expect(await refusal(tight.sponsor(b.userId, sponsorshipRequest(paymaster(), opB as never)))).toMatch(
      /Free transactions are paused for today/,
    );
  });
});
