// The server's side of the verifying paymaster (issue 34, decision 186): it signs a sponsorship of a user
// operation only for a passkey wallet linked to the signed-in fan, only for actions we sponsor (our
// contracts' calls; a transfer only to a wallet the fan linked), with fees within the bundler's price and
// gas within its estimate, under a per-fan and a global daily budget kept here. The bundler proxy asks the
// same questions of what it relays (checkRelay).
import type { SponsorshipRequest } from "@diginoor/api/chain";
import { diginoorCollectibleAbi } from "@diginoor/contracts/generated/diginoorCollectible";
import { diginoorPasskeyAccountAbi } from "@diginoor/contracts/generated/diginoorPasskeyAccount";
import { diginoorPaymasterAbi } from "@diginoor/contracts/generated/diginoorPaymaster";
import {
  BATCH_MODE,
  encodeSponsorship,
  PAYMASTER_VERIFICATION_GAS,
  type SponsoredOperation,
  STUB_SPONSORSHIP,
  sponsorshipTypedData,
} from "@diginoor/contracts/passkey-account";
import {
  type Address,
  decodeAbiParameters,
  decodeFunctionData,
  type Hex,
  type LocalAccount,
  type PublicClient,
  toFunctionSelector,
} from "viem";
import type { Database } from "../../db/client.ts";
import { AppError } from "../../http/errors.ts";
import type { Clock } from "../../platform/clock.ts";
import { withTransaction } from "../../platform/tx.ts";
import * as repo from "./repo.ts";

/** Fees may be at most this many times the bundler's current price. */
export const FEE_FACTOR = 2n;
/** Gas limits may be at most this percentage of the bundler's estimate. */
export const GAS_PERCENT_OF_ESTIMATE = 150n;
/** The account's verification gas floor (passkey-account.ts: P-256 without the precompile). */
const VERIFICATION_GAS_FLOOR = 600_000n;
/** A sponsorship is good this long after the chain's latest block (and from a minute before it). */
export const SPONSORSHIP_SECONDS = 600;
/** DiginoorPaymaster.EXECUTE_OVERHEAD_GAS: the account's batch around its calls. */
const EXECUTE_OVERHEAD_GAS = 30_000n;

const TRANSFER_FROM = toFunctionSelector("transferFrom(address,address,uint256)");
const EXECUTION_TUPLE = [
  {
    type: "tuple[]",
    components: [
      { name: "target", type: "address" },
      { name: "value", type: "uint256" },
      { name: "callData", type: "bytes" },
    ],
  },
] as const;

export interface SponsorshipBudget {
  fanDailyOps: number;
  fanDailyWei: bigint;
  globalDailyWei: bigint;
}

export interface SponsorshipDeps {
  database: Database;
  clock: Clock;
  chain?: {
    chainId: number;
    publicClient: PublicClient;
    collectible: Address;
    entryPoint?: Address;
    paymaster?: Address;
    bundlerUrl?: string;
    /** SPONSOR_SIGNER_PRIVATE_KEY (anvil's 10th account on the local chain). */
    sponsor?: LocalAccount;
  };
  budget: SponsorshipBudget;
}

export interface SponsorshipService {
  /** The paymaster's data for `op` of the fan's passkey wallet, or a refusal saying why. */
  sponsor(userId: string, op: SponsorshipRequest): Promise<{ paymasterData: Hex; validUntil: number }>;
  /** Refuses a bundler call the proxy must not relay for this user (another's wallet, our paymaster's name on a foreign one, gas or fees out of bounds). */
  checkRelay(userId: string, method: string, params: readonly unknown[]): Promise<void>;
}

type Gas = { callGasLimit: bigint; verificationGasLimit: bigint; preVerificationGas: bigint };

const refuse = (message: string, details?: unknown) => new AppError("bad_request", message, details);
const big = (v: unknown, name: string): bigint => {
  if (typeof v !== "string" || !/^0x[0-9a-fA-F]{1,64}$/.test(v)) throw refuse(`${name} must be a hex number`);
  return BigInt(v);
};
const same = (a: string | undefined, b: string | undefined) =>
  !!a && !!b && a.toLowerCase() === b.toLowerCase();

export function createSponsorship(deps: SponsorshipDeps): SponsorshipService {
  const { database, clock, budget } = deps;
  let maxCostPerOp: Promise<bigint> | undefined;

  function chainOrFail() {
    const c = deps.chain;
    if (!c?.paymaster || !c.bundlerUrl || !c.entryPoint)
      throw new AppError("unavailable", "Passkey wallets are unavailable: no paymaster or bundler");
    return c as Required<NonNullable<SponsorshipDeps["chain"]>>;
  }

  async function bundler<T>(method: string, params: unknown[]): Promise<T> {
    const c = chainOrFail();
    let answer: { result?: T; error?: { message: string; data?: unknown } } | undefined;
    try {
      const res = await fetch(c.bundlerUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
        signal: AbortSignal.timeout(30_000),
      });
      answer = (await res.json()) as typeof answer;
    } catch {
      throw new AppError("unavailable", "The ERC-4337 bundler did not answer");
    }
    if (answer?.error) throw refuse(`The bundler refused the operation: ${answer.error.message}`);
    if (answer?.result === undefined)
      throw new AppError("unavailable", "The ERC-4337 bundler answered nonsense");
    return answer.result;
  }

  /** The fan's own passkey wallet, or a refusal. */
  async function ownPasskeyWallet(userId: string, sender: string) {
    const mine = await repo.listWallets(database.db, userId);
    const w = mine.find((x) => same(x.address, sender));
    if (w?.kind !== "passkey" || w.chainId !== chainOrFail().chainId)
      throw new AppError("forbidden", "That is not a passkey wallet of your account");
    return { wallet: w, linked: mine.map((x) => x.address.toLowerCase()) };
  }

  /** Fees within FEE_FACTOR times the bundler's price (the node's when the bundler quotes none). */
  async function checkFees(maxFeePerGas: bigint, maxPriorityFeePerGas: bigint) {
    const c = chainOrFail();
    let price: bigint;
    try {
      const q = await bundler<{ standard?: { maxFeePerGas: Hex } }>("pimlico_getUserOperationGasPrice", []);
      if (!q.standard) throw new Error("no standard price");
      price = BigInt(q.standard.maxFeePerGas);
    } catch (err) {
      if (err instanceof AppError && err.code === "unavailable") throw err;
      price = (await c.publicClient.estimateFeesPerGas()).maxFeePerGas;
    }
    if (maxPriorityFeePerGas > maxFeePerGas) throw refuse("maxPriorityFeePerGas is above maxFeePerGas");
    if (maxFeePerGas > price * FEE_FACTOR)
      throw refuse(
        `maxFeePerGas ${maxFeePerGas} is above ${FEE_FACTOR} times the network's price (${price})`,
        {
          maxFeePerGas: maxFeePerGas.toString(),
          price: price.toString(),
        },
      );
  }

  /** Gas limits within GAS_PERCENT_OF_ESTIMATE of the bundler's own estimate of the operation. */
  async function checkGas(op: Record<string, unknown>, gas: Gas) {
    const c = chainOrFail();
    const est = await bundler<Record<string, Hex>>("eth_estimateUserOperationGas", [op, c.entryPoint]);
    const bound = (e: Hex | undefined, floor = 0n) => {
      const v = e ? BigInt(e) : 0n;
      return ((v > floor ? v : floor) * GAS_PERCENT_OF_ESTIMATE) / 100n;
    };
    const limits: [keyof Gas, bigint][] = [
      ["callGasLimit", bound(est.callGasLimit)],
      ["verificationGasLimit", bound(est.verificationGasLimit, VERIFICATION_GAS_FLOOR)],
      ["preVerificationGas", bound(est.preVerificationGas)],
    ];
    for (const [field, limit] of limits) {
      if (gas[field] > limit)
        throw refuse(
          `${field} ${gas[field]} is above the bundler's estimate by more than ${GAS_PERCENT_OF_ESTIMATE}%`,
          {
            field,
            given: gas[field].toString(),
            limit: limit.toString(),
          },
        );
    }
  }

  /** The batch's calls, each one we sponsor (the paymaster's own answer), and its call gas cap. */
  async function checkCalls(sender: Address, callData: Hex, linked: string[]): Promise<bigint> {
    const c = chainOrFail();
    let calls: readonly { target: Address; value: bigint; callData: Hex }[];
    try {
      const { functionName, args } = decodeFunctionData({ abi: diginoorPasskeyAccountAbi, data: callData });
      if (functionName !== "execute" || !args || args[0] !== BATCH_MODE) throw new Error("not a batch");
      [calls] = decodeAbiParameters(EXECUTION_TUPLE, args[1] as Hex);
    } catch {
      throw refuse("Only a batch of the wallet's execute is sponsored");
    }
    let cap = EXECUTE_OVERHEAD_GAS;
    for (const call of calls) {
      const gas =
        call.value === 0n
          ? await c.publicClient.readContract({
              address: c.paymaster,
              abi: diginoorPaymasterAbi,
              functionName: "callGasCap",
              args: [sender, call.target, call.callData],
            })
          : 0n;
      if (gas === 0n) throw refuse("That is not an action we pay the gas of", { target: call.target });
      if (same(call.target, c.collectible) && call.callData.slice(0, 10) === TRANSFER_FROM) {
        const { args } = decodeFunctionData({ abi: diginoorCollectibleAbi, data: call.callData });
        const [from, to] = args as readonly [Address, Address, bigint];
        if (!same(from, sender) || same(to, sender) || !linked.includes(to.toLowerCase()))
          throw refuse(
            "We pay the gas of a transfer only to another wallet of your account; a transfer elsewhere is paid from your wallet",
          );
      }
      cap += gas;
    }
    return cap;
  }

  async function reserve(userId: string, op: { sender: string; nonce: bigint }, maxCost: bigint) {
    const now = clock.date();
    const day = now.toISOString().slice(0, 10);
    await withTransaction(database, async (tx) => {
      // One signer at a time: the budgets are sums over rows another signing may be adding.
      await tx.query("SELECT pg_advisory_xact_lock(3400180)");
      const nonce = op.nonce.toString();
      const sender = op.sender.toLowerCase();
      const [fan] = await tx.query<{ n: string; wei: string }>(
        `SELECT count(*)::text AS n, coalesce(sum(max_cost_wei), 0)::text AS wei FROM sponsorships
          WHERE day = $1 AND user_id = $2 AND NOT (sender = $3 AND nonce = $4)`,
        [day, userId, sender, nonce],
      );
      const [all] = await tx.query<{ wei: string }>(
        `SELECT coalesce(sum(max_cost_wei), 0)::text AS wei FROM sponsorships
          WHERE day = $1 AND NOT (sender = $2 AND nonce = $3)`,
        [day, sender, nonce],
      );
      if (
        Number(fan?.n ?? 0) + 1 > budget.fanDailyOps ||
        BigInt(fan?.wei ?? 0) + maxCost > budget.fanDailyWei
      )
        throw new AppError(
          "rate_limited",
          "Today's free transactions of your account are used up; try again tomorrow, or pay the gas from your wallet",
        );
      if (BigInt(all?.wei ?? 0) + maxCost > budget.globalDailyWei)
        throw new AppError("rate_limited", "Free transactions are paused for today; try again tomorrow");
      await tx.query(
        `INSERT INTO sponsorships (sender, nonce, user_id, day, max_cost_wei, signed_at)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (sender, nonce) DO UPDATE
           SET user_id = EXCLUDED.user_id, day = EXCLUDED.day, max_cost_wei = EXCLUDED.max_cost_wei,
               signed_at = EXCLUDED.signed_at`,
        [sender, nonce, userId, day, maxCost.toString(), now],
      );
    });
  }

  return {
    async sponsor(userId, req) {
      const c = chainOrFail();
      if (!c.sponsor)
        throw new AppError("unavailable", "Sponsored transactions are unavailable: no sponsorship key");
      if (!same(req.paymaster, c.paymaster)) throw refuse("That is not our paymaster");
      const { linked } = await ownPasskeyWallet(userId, req.sender);
      const op: SponsoredOperation = {
        sender: req.sender as Address,
        nonce: BigInt(req.nonce),
        factory: req.factory as Address | undefined,
        factoryData: req.factoryData as Hex | undefined,
        callData: req.callData as Hex,
        callGasLimit: BigInt(req.callGasLimit),
        verificationGasLimit: BigInt(req.verificationGasLimit),
        preVerificationGas: BigInt(req.preVerificationGas),
        maxFeePerGas: BigInt(req.maxFeePerGas),
        maxPriorityFeePerGas: BigInt(req.maxPriorityFeePerGas),
        paymasterVerificationGasLimit: BigInt(req.paymasterVerificationGasLimit),
        paymasterPostOpGasLimit: BigInt(req.paymasterPostOpGasLimit),
      };
      if (
        op.paymasterVerificationGasLimit !== PAYMASTER_VERIFICATION_GAS ||
        op.paymasterPostOpGasLimit !== 0n
      )
        throw refuse(`The paymaster's gas limits are ${PAYMASTER_VERIFICATION_GAS} and 0`);
      const cap = await checkCalls(op.sender, op.callData, linked);
      if (op.callGasLimit > cap)
        throw refuse(`callGasLimit ${op.callGasLimit} is above the calls' cap (${cap})`);
      await checkFees(op.maxFeePerGas, op.maxPriorityFeePerGas);
      await checkGas({ ...req, paymasterData: STUB_SPONSORSHIP }, op);
      const maxCost =
        (op.callGasLimit +
          op.verificationGasLimit +
          op.preVerificationGas +
          PAYMASTER_VERIFICATION_GAS +
          (op.paymasterPostOpGasLimit ?? 0n)) *
        op.maxFeePerGas;
      maxCostPerOp ??= c.publicClient
        .readContract({ address: c.paymaster, abi: diginoorPaymasterAbi, functionName: "maxCostPerOp" })
        .catch((err: unknown) => {
          maxCostPerOp = undefined;
          throw err;
        });
      if (maxCost > (await maxCostPerOp))
        throw refuse("The operation may cost more than the paymaster pays for one");
      await reserve(userId, op, maxCost);
      // The window on the chain's clock, which the EntryPoint reads (a development chain's may run ahead).
      const now = Number((await c.publicClient.getBlock()).timestamp);
      const validAfter = now - 60;
      const validUntil = now + SPONSORSHIP_SECONDS;
      const signature = await c.sponsor.signTypedData(
        sponsorshipTypedData({ paymaster: c.paymaster, chainId: c.chainId, op, validAfter, validUntil }),
      );
      return { paymasterData: encodeSponsorship(validAfter, validUntil, signature), validUntil };
    },

    async checkRelay(userId, method, params) {
      if (method !== "eth_sendUserOperation" && method !== "eth_estimateUserOperationGas") return;
      const c = chainOrFail();
      const [op, entryPoint] = params as [Record<string, unknown> | undefined, unknown];
      if (!op || typeof op !== "object") throw refuse("A user operation is required");
      if (typeof entryPoint !== "string" || !same(entryPoint, c.entryPoint))
        throw refuse("Only operations for our EntryPoint are relayed");
      await ownPasskeyWallet(userId, String(op.sender ?? ""));
      if (op.paymaster !== undefined && op.paymaster !== null && !same(String(op.paymaster), c.paymaster))
        throw refuse("Only operations paid by our paymaster or by the wallet itself are relayed");
      if (method !== "eth_sendUserOperation") return;
      const gas: Gas = {
        callGasLimit: big(op.callGasLimit, "callGasLimit"),
        verificationGasLimit: big(op.verificationGasLimit, "verificationGasLimit"),
        preVerificationGas: big(op.preVerificationGas, "preVerificationGas"),
      };
      await checkFees(
        big(op.maxFeePerGas, "maxFeePerGas"),
        big(op.maxPriorityFeePerGas, "maxPriorityFeePerGas"),
      );
      await checkGas(op, gas);
    },
  };
}
