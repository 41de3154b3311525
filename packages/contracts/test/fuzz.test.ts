/**
 * Property-based fuzzing (fast-check): random sequences of list, update, cancel, buy, create auction, bid,
 * settle, cancel auction, withdraw, direct ERC-721 transfers (stale/zombie listings), time travel, pause and
 * unpause (with bids in the window after an unpause), primary purchases with vouchers signed before a primary
 * fee decrease (whose proceeds are credited to the studio, which withdraws them), fee withdrawals, by several
 * EOAs and by a contract that rejects ETH. A reference model predicts
 * whether every transaction succeeds and what it pays to whom; after every step the test checks against the
 * chain:
 *  - the marketplace's ETH balance equals the escrowed highest bids plus all withdrawable balances plus the
 *    accrued platform fees;
 *  - every token has exactly one owner (the modelled one) and balances add up to the token count;
 *  - no bid below the reserve or the minimum increment was accepted (the model expects a revert);
 *  - every party's ETH is conserved: balance = start - value paid - gas + payouts received.
 * Transactions are sent with a fixed gas limit (no pre-flight estimate), so reverted ones are mined too
 * and their gas is accounted. FUZZ_RUNS (default 25), FUZZ_STEPS (default 40) and FUZZ_SEED
 * (default fixed; `random` for a new one) scale the search.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Abi, type Address, encodeFunctionData } from "viem";
import { diginoorCollectibleAbi } from "../generated/diginoorCollectible.js";
import { diginoorMarketplaceAbi } from "../generated/diginoorMarketplace.js";
import { attackerWalletAbi } from "../generated/testHelpers.js";
import { toOrderId, voucherOrderId } from "../src/voucher.js";
import {
  approveMarketplace,
  attack,
  deployAttacker,
  ETH,
  type Fixture,
  makeVoucher,
  minterMint,
  revertTo,
  nextEdition,
  setupFixture,
  snapshot,
  type Wallet,
  zeroAddress,
} from "./fixture.js";

const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
const STEPS = Number(process.env.FUZZ_STEPS ?? 40);
/** Fixed by default so CI is reproducible; FUZZ_SEED=random explores new sequences. */
const SEED = process.env.FUZZ_SEED === "random" ? Date.now() : Number(process.env.FUZZ_SEED ?? 20261122);
// The product's rules, written from the spec and the decisions, not read from the contracts:
/** Spec: production houses receive 10% royalties on every sale and resale. */
const SPEC_ROYALTY_PERCENT = 10n;
/** Decision 104/108: the platform keeps 2.5% of a sale (resale and primary) unless the admin changes it. */
const PLATFORM_FEE_PER_MILLE = 25n;
/** Decision 105: a new bid must beat the highest by 5% (at least 1 wei). */
const INCREMENT_PERCENT = 5n;
const DAY = 86_400n;
const WEEK = 7n * DAY;
/** Spec: a bid in the last 15 minutes extends the auction to 15 minutes after it. */
const WINDOW = 15n * 60n;
/** Fixed minimum successes of rarer paths with the default seed (the others need RUNS / 5). */
const MINIMUM_OK: Record<string, number> = {
  withdraw: 2,
  /** The studio withdrawing its primary-sale credits (6 with the default seed). */
  "withdraw:studio": 3,
  pauseNearEnd: 3,
  withdrawFees: 3,
  postPauseBid: 1,
  "buy:contract": 3,
};
/** Outcome counts per action type across all runs (printed with FUZZ_VERBOSE=1). */
const stats = new Map<string, { ok: number; reverted: number }>();

let f: Fixture;
let eve: Wallet; // operates the ETH-rejecting contract
let operator: Wallet; // operates the gas-burning and the re-entrant contracts
let rejecter: Address; // rejects ETH: every payout to it is credited
let burner: Address; // burns all the gas it is given on receiving ETH: every pushed payout is credited
let reentrant: Address; // tries to re-enter the marketplace whenever it receives ETH or a token
let eoas: Wallet[];
let tokens: bigint[];
let initialOwners: Address[];
let royaltyReceivers: Address[];

beforeAll(async () => {
  f = await setupFixture();
  eoas = [3, 4, 5, 6].map((i) => f.wallets[i] as Wallet);
  eve = f.wallets[7] as Wallet;
  operator = f.wallets[8] as Wallet;
  rejecter = await deployAttacker(f, eve);
  burner = await deployAttacker(f, operator);
  reentrant = await deployAttacker(f, operator);
  await attack(f, eve, rejecter, "configure", [true, false, zeroAddress, 0n, "0x"]);
  await attack(f, operator, burner, "setBurnGas", [true]);
  // Re-enter with a call that would move money if the guard let it through: withdraw everything owed.
  await attack(f, operator, reentrant, "configure", [
    false,
    false,
    f.marketplace,
    0n,
    encodeFunctionData({ abi: diginoorMarketplaceAbi, functionName: "withdraw" }),
  ]);
  for (const [w, c] of [
    [eve, rejecter],
    [operator, burner],
    [operator, reentrant],
  ] as const) {
    await attack(f, w, c, "execute", [
      f.collectible,
      0n,
      encodeFunctionData({
        abi: diginoorCollectibleAbi,
        functionName: "setApprovalForAll",
        args: [f.marketplace, true],
      }),
    ]);
  }
  for (const w of eoas) await approveMarketplace(f, w);
  initialOwners = [...eoas.map((w) => w.account.address), rejecter, burner, reentrant];
  royaltyReceivers = initialOwners.map((_, i) => (i === 0 ? rejecter : i === 1 ? burner : f.productionHouse));
  tokens = [];
  for (const [i, owner] of initialOwners.entries()) {
    tokens.push((await minterMint(f, owner, { royaltyReceiver: royaltyReceivers[i] })).tokenId);
  }
});
afterAll(async () => {
  await f?.stop();
});

// ------------------------------------------------------------------ actions
const ACTORS = 7; // 0..3 EOAs, 4 = ETH-rejecting contract, 5 = gas burner, 6 = re-entrant contract
/** Not drawn as an actor: the studio (the production house, payee of every primary sale) when it withdraws. */
const STUDIO = 7;
type Action =
  | { t: "list"; a: number; k: number; price: bigint; self: boolean }
  | { t: "update"; a: number; k: number; price: bigint; self: boolean }
  | { t: "cancel"; a: number; k: number; self: boolean }
  | { t: "transfer"; a: number; k: number; to: number; self: boolean }
  | { t: "buy"; a: number; k: number; stale: boolean; self: boolean }
  | { t: "create"; a: number; k: number; reserve: bigint; days: number; self: boolean }
  | { t: "bid"; a: number; k: number; kind: "below" | "exact" | "above"; extra: bigint; self: boolean }
  | { t: "settle"; a: number; k: number; self: boolean; wait: boolean } // wait: first let the auction end
  | { t: "cancelAuction"; a: number; k: number; self: boolean }
  | { t: "withdraw"; a: number; self: boolean }
  | { t: "purchase"; a: number; price: bigint; self?: undefined }
  | { t: "mint"; a: number; self?: undefined }
  | { t: "approval"; a: number; approve: boolean; self?: undefined }
  | { t: "setFee"; bps: number; self?: undefined }
  | { t: "applyFees"; wait: boolean; self?: undefined }
  | { t: "setRoyalty"; k: number; bps: number; self?: undefined }
  | { t: "setIncrement"; bps: number; self?: undefined }
  | { t: "pauseNearEnd"; k: number; before: bigint; thenBid: boolean; self?: undefined }
  | { t: "purchaseInFlight"; a: number; price: bigint; drop: number; wait: boolean; self?: undefined }
  | { t: "withdrawFees"; a: number; self?: undefined }
  | { t: "time"; s: bigint; self?: undefined }
  | { t: "pause"; self?: undefined }
  | { t: "unpause"; self?: undefined };

const actor = fc.integer({ min: 0, max: ACTORS - 1 });
const tok = fc.integer({ min: 0, max: 31 }); // taken modulo the number of tokens in the run
const price = fc.bigInt({ min: 1n, max: 5n * ETH });
/** Mostly act as the token's owner / the listing's or auction's seller, sometimes as a random account. */
const self = fc.oneof(
  { weight: 4, arbitrary: fc.constant(true) },
  { weight: 1, arbitrary: fc.constant(false) },
);
const rec = <T extends Action["t"]>(t: T, fields: Record<string, fc.Arbitrary<unknown>>, weight: number) => ({
  weight,
  arbitrary: fc.record({ t: fc.constant(t), ...fields }) as unknown as fc.Arbitrary<Action>,
});
const actionArb: fc.Arbitrary<Action> = fc.oneof(
  rec("list", { a: actor, k: tok, price, self }, 10),
  rec("update", { a: actor, k: tok, price, self }, 4),
  rec("cancel", { a: actor, k: tok, self }, 2),
  rec("transfer", { a: actor, k: tok, to: actor, self }, 3),
  rec(
    "buy",
    {
      a: actor,
      k: tok,
      stale: fc.oneof(
        { weight: 2, arbitrary: fc.constant(true) },
        { weight: 8, arbitrary: fc.constant(false) },
      ),
      self,
    },
    6,
  ),
  rec("create", { a: actor, k: tok, reserve: price, days: fc.integer({ min: 1, max: 2 }), self }, 6),
  rec(
    "bid",
    {
      a: actor,
      k: tok,
      kind: fc.constantFrom("below" as const, "exact" as const, "above" as const),
      extra: fc.bigInt({ min: 0n, max: ETH }),
      self,
    },
    12,
  ),
  rec(
    "settle",
    {
      a: actor,
      k: tok,
      self,
      wait: fc.oneof(
        { weight: 3, arbitrary: fc.constant(true) },
        { weight: 1, arbitrary: fc.constant(false) },
      ),
    },
    8,
  ),
  rec("cancelAuction", { a: actor, k: tok, self }, 2),
  rec("withdraw", { a: actor, self }, 4),
  rec("purchase", { a: actor, price: fc.bigInt({ min: 0n, max: 2n * ETH }) }, 3),
  rec("mint", { a: actor }, 2),
  rec(
    "approval",
    {
      a: actor,
      approve: fc.oneof(
        { weight: 1, arbitrary: fc.constant(false) },
        { weight: 2, arbitrary: fc.constant(true) },
      ),
    },
    3,
  ),
  rec("setFee", { bps: fc.integer({ min: 0, max: 1000 }) }, 2),
  rec("applyFees", { wait: fc.boolean() }, 2),
  rec("setRoyalty", { k: tok, bps: fc.integer({ min: 0, max: 1500 }) }, 2),
  rec("setIncrement", { bps: fc.integer({ min: 1, max: 5000 }) }, 1),
  rec("pauseNearEnd", { k: tok, before: fc.bigInt({ min: 0n, max: 1200n }), thenBid: fc.boolean() }, 2),
  rec(
    "purchaseInFlight",
    {
      a: actor,
      price: fc.bigInt({ min: 0n, max: 2n * ETH }),
      drop: fc.integer({ min: 0, max: 400 }),
      wait: fc.boolean(),
    },
    2,
  ),
  rec("withdrawFees", { a: actor }, 1),
  {
    weight: 6,
    arbitrary: fc.record({
      t: fc.constant("time" as const),
      s: fc.constantFrom(60n, 600n, 899n, 900n, 3600n, DAY - 300n, DAY, DAY, 2n * DAY, 2n * DAY),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ t: "pause" as const }) },
  { weight: 8, arbitrary: fc.constant({ t: "unpause" as const }) },
);

// ------------------------------------------------------------------ model
interface Auction {
  seller: Address;
  reserve: bigint;
  days: bigint;
  bidder: Address | null;
  amount: bigint;
  endTime: bigint;
  feeBps: bigint;
  royaltyBps: bigint;
  incrementBps: bigint;
}
interface Listing {
  seller: Address;
  price: bigint;
  version: number;
  epoch: number;
  feeBps: bigint;
  royaltyBps: bigint;
}
interface Model {
  tokens: bigint[];
  owner: Address[];
  listing: (Listing | undefined)[];
  version: number[]; // per token: transfers and single approvals since the mint
  royaltyBps: bigint[];
  royaltyReceiver: Address[];
  auction: (Auction | undefined)[];
  approved: Map<Address, boolean>; // operator approval of the marketplace
  epoch: Map<Address, number>; // revocations of an approved operator
  feeBps: bigint;
  pendingFee: { bps: bigint; at: bigint } | null;
  primaryFeeBps: bigint;
  /** A voucher fee up to `bps` expiring by `until` is accepted after a primary fee decrease (decision 108). */
  grace: { bps: bigint; until: bigint };
  /** Platform fees credited to the treasury, not yet withdrawn. */
  accrued: bigint;
  incrementBps: bigint;
  /** Start of the current pause (or of an expired one nobody lifted); null when none. */
  pausedAt: bigint | null;
  /** The last pause that ended: [start, end]. */
  lastPause: [bigint, bigint] | null;
  pending: Map<Address, bigint>;
  balance: Map<Address, bigint>; // expected ETH balance of every party (pending included for the re-entrant one)
  time: bigint;
}

/** Percent and per-mille of an amount, rounded down (how the spec's shares are paid in wei). */
const percentOf = (amount: bigint, bps: bigint) => (amount * bps) / 10_000n;

/**
 * Run one action sequence from the base state against the chain and the model, checking every invariant
 * after each step; the chain is reverted afterwards. Throws on the first discrepancy.
 */
async function runSequence(actions: Action[]): Promise<void> {
  const mp = f.marketplace;
  const contracts = [rejecter, burner, reentrant];
  const addrOf = (a: number): Address =>
    a === STUDIO
      ? f.productionHouse
      : a >= 4
        ? (contracts[a - 4] as Address)
        : (eoas[a] as Wallet).account.address;
  const parties: Address[] = [
    ...eoas.map((w) => w.account.address),
    rejecter,
    burner,
    reentrant,
    eve.account.address,
    operator.account.address,
    f.admin.account.address,
    f.productionHouse,
    f.treasury,
  ];

  const snap = await snapshot(f);
  try {
    const latest = await f.publicClient.getBlock();
    const m: Model = {
      tokens: [...tokens],
      owner: [...initialOwners],
      version: tokens.map(() => 0),
      listing: tokens.map(() => undefined),
      royaltyBps: tokens.map(() => SPEC_ROYALTY_PERCENT * 100n),
      royaltyReceiver: [...royaltyReceivers],
      auction: tokens.map(() => undefined),
      approved: new Map(initialOwners.map((o) => [o, true])),
      epoch: new Map(),
      feeBps: PLATFORM_FEE_PER_MILLE * 10n,
      pendingFee: null,
      primaryFeeBps: PLATFORM_FEE_PER_MILLE * 10n,
      grace: { bps: 0n, until: 0n },
      accrued: 0n,
      incrementBps: INCREMENT_PERCENT * 100n,
      pausedAt: null,
      lastPause: null,
      pending: new Map(parties.map((p) => [p, 0n])),
      balance: new Map(
        await Promise.all(
          parties.map(async (p) => [p, await f.publicClient.getBalance({ address: p })] as const),
        ),
      ),
      time: latest.timestamp,
    };
    /** A primary sale's proceeds: always credited to the payee (decision 106), withdrawn by it. */
    const owe = (to: Address, amount: bigint) => m.pending.set(to, (m.pending.get(to) ?? 0n) + amount);
    /** Pushed payouts to the rejecting and the gas-burning contracts always fail and are credited. */
    const credit = (to: Address, amount: bigint) => {
      if (amount === 0n) return;
      if (to === rejecter || to === burner) m.pending.set(to, (m.pending.get(to) ?? 0n) + amount);
      else m.balance.set(to, (m.balance.get(to) ?? 0n) + amount);
    };
    const debit = (from: Address, amount: bigint) =>
      m.balance.set(from, (m.balance.get(from) ?? 0n) - amount);
    const split = (k: number, amount: bigint, seller: Address, feeBps: bigint, royaltyBps: bigint) => {
      const royalty = percentOf(amount, royaltyBps);
      const fee = percentOf(amount, feeBps);
      credit(m.royaltyReceiver[k] as Address, royalty);
      m.accrued += fee;
      credit(seller, amount - royalty - fee);
    };
    /** Paused at time `at`: a pause lasts at most 7 days (decision 108). */
    const pausedAt = (at: bigint) => m.pausedAt !== null && at < m.pausedAt + WEEK;
    /** The last finished pause at time `at`. */
    const finishedPause = (at: bigint): [bigint, bigint] | null =>
      m.pausedAt !== null && !pausedAt(at) ? [m.pausedAt, m.pausedAt + WEEK] : m.lastPause;
    /** Bidding closes 15 minutes after a pause that began while the auction ran and ended near its end. */
    const fairEnd = (end: bigint, at: bigint) => {
      const p = finishedPause(at);
      return p && p[0] < end && p[1] + WINDOW > end ? p[1] + WINDOW : end;
    };
    const addToken = (id: bigint, owner: Address, receiver: Address) => {
      m.tokens.push(id);
      m.owner.push(owner);
      m.version.push(0);
      m.listing.push(undefined);
      m.royaltyBps.push(SPEC_ROYALTY_PERCENT * 100n);
      m.royaltyReceiver.push(receiver);
      m.auction.push(undefined);
    };

    /** Send a call as actor `a` (EOA directly, contracts through their operator). */
    const call = async (
      a: number | "admin" | "minter",
      fn: string,
      args: readonly unknown[],
      value = 0n,
      target: Address = mp,
    ) => {
      m.time += 1n;
      await f.testClient.setNextBlockTimestamp({ timestamp: m.time });
      const data = encodeFunctionData({
        abi: (target === mp ? diginoorMarketplaceAbi : diginoorCollectibleAbi) as Abi,
        functionName: fn,
        args,
      } as never);
      const wallet =
        a === "admin"
          ? f.admin
          : a === "minter"
            ? f.minter
            : a === STUDIO
              ? (f.wallets[2] as Wallet)
              : a === 4
                ? eve
                : a >= 5
                  ? operator
                  : (eoas[a] as Wallet);
      const hash =
        typeof a === "number" && a >= 4 && a !== STUDIO
          ? await wallet.writeContract({
              address: addrOf(a),
              abi: attackerWalletAbi,
              functionName: "execute",
              args: [target, value, data],
              value,
              gas: 2_000_000n,
            })
          : await wallet.sendTransaction({ to: target, data, value, gas: 2_000_000n });
      const r = await f.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 });
      debit(wallet.account.address, r.gasUsed * r.effectiveGasPrice);
      const ok = r.status === "success";
      if (ok) debit(wallet.account.address, value);
      return ok;
    };
    const expectOutcome = (act: Action, predicted: boolean, ok: boolean) => {
      const st = stats.get(act.t) ?? { ok: 0, reverted: 0 };
      if (ok) st.ok++;
      else st.reverted++;
      stats.set(act.t, st);
      if (ok && "a" in act && act.a >= 4 && act.a !== STUDIO) {
        const c = stats.get(`${act.t}:contract`) ?? { ok: 0, reverted: 0 };
        c.ok++;
        stats.set(`${act.t}:contract`, c);
      }
      if (predicted !== ok) {
        throw new Error(
          `${JSON.stringify(act, (_, v) => (typeof v === "bigint" ? v.toString() : v))}: model expected ${predicted ? "success" : "revert"}, chain ${ok ? "succeeded" : "reverted"}`,
        );
      }
    };
    const indexOf = (addr: Address | undefined, fallback: number) => {
      const i = addr ? [...eoas.map((w) => w.account.address), ...contracts].indexOf(addr) : -1;
      return i >= 0 ? i : fallback;
    };
    let orderNumber = 500_000n;
    for (const generated of actions) {
      const act = { ...generated } as Action; // never mutate generated values (shrinking replays them)
      if ("k" in act) act.k %= m.tokens.length;
      /** A listing is live while the token has not moved and its seller revoked nothing since. */
      const live = (k: number) => {
        const l = m.listing[k];
        return !!l && l.version === m.version[k] && l.epoch === (m.epoch.get(l.seller) ?? 0);
      };
      const moved = (k: number, to: Address) => {
        m.owner[k] = to;
        m.version[k] = (m.version[k] ?? 0) + 1;
      };
      if (act.self) {
        const pick = (ok: (i: number) => boolean) => {
          const found = m.tokens.map((_, i) => i).filter(ok);
          if (found.length && "k" in act) act.k = found[act.k % found.length] as number;
        };
        if (act.t === "update") pick(live);
        if (act.t === "cancel") pick((i) => m.listing[i] !== undefined);
        if (act.t === "cancelAuction") pick((i) => !!m.auction[i] && !m.auction[i]?.bidder);
        // Mostly move listed tokens: the listing left behind must never be buyable (zombie listings).
        if (act.t === "transfer" && act.to % 3 !== 0) pick(live);
        if (
          act.t === "list" ||
          act.t === "create" ||
          act.t === "transfer" ||
          act.t === "update" ||
          act.t === "cancel"
        )
          act.a = indexOf(m.owner[act.k], act.a);
        else if (act.t === "cancelAuction") act.a = indexOf(m.auction[act.k]?.seller, act.a);
        else if (act.t === "withdraw") {
          // The contracts whose payouts were credited, and the studio once a primary sale credited it.
          const owed = [4, 5, STUDIO].filter((a) => (m.pending.get(addrOf(a)) ?? 0n) > 0n);
          act.a = owed.length ? (owed[act.a % owed.length] as number) : act.a;
        } else if (act.t === "bid" || act.t === "settle" || act.t === "buy") {
          // "self" here means: aim at a token that is actually on auction / listed, if any.
          const live = m.tokens
            .map((_, i) => i)
            .filter((i) =>
              act.t === "buy"
                ? m.listing[i] !== undefined
                : act.t === "settle"
                  ? !!m.auction[i]?.bidder
                  : m.auction[i] !== undefined,
            );
          if (live.length) act.k = live[act.k % live.length] as number;
        }
      }
      /** List token `k` as actor `a` at `price`, predicting the outcome; returns whether it was listed. */
      const listAs = async (a: number, k: number, listPrice: bigint) => {
        const me = addrOf(a);
        const t = m.time + 1n;
        const predicted = !pausedAt(t) && m.owner[k] === me && !live(k) && !!m.approved.get(me);
        const ok = await call(a, "list", [m.tokens[k] as bigint, listPrice]);
        expectOutcome({ t: "list", a, k, price: listPrice, self: true }, predicted, ok);
        if (ok) {
          m.listing[k] = {
            seller: me,
            price: listPrice,
            version: m.version[k] ?? 0,
            epoch: m.epoch.get(me) ?? 0,
            feeBps: m.feeBps,
            royaltyBps: m.royaltyBps[k] as bigint,
          };
        }
        return ok;
      };
      // A settlement aimed at a running auction bids on one first when no auction has a bid yet.
      if (act.t === "settle" && act.self && !m.auction[act.k]?.bidder) {
        const open = m.tokens.map((_, i) => i).filter((i) => !!m.auction[i] && !m.auction[i]?.bidder);
        const k = open[act.k % Math.max(1, open.length)];
        const au = k === undefined ? undefined : m.auction[k];
        if (k !== undefined && au && !pausedAt(m.time + 1n)) {
          const bidder = [0, 1, 2, 3].find((b) => addrOf(b) !== au.seller) as number;
          const ok = await call(bidder, "bid", [m.tokens[k] as bigint], au.reserve);
          expectOutcome({ t: "bid", a: bidder, k, kind: "exact", extra: 0n, self: true }, true, ok);
          au.bidder = addrOf(bidder);
          au.amount = au.reserve;
          au.endTime = m.time + au.days * DAY;
          act.k = k;
        }
      }
      // Updates and cancellations aimed at "their own" listing list the token first when it is not listed.
      if ((act.t === "update" || act.t === "cancel") && act.self && !live(act.k)) {
        const owner = m.owner[act.k] as Address;
        if (owner !== f.marketplace && m.approved.get(owner)) await listAs(indexOf(owner, act.a), act.k, ETH);
      }
      const at = m.time + 1n; // every call is mined one second after the model's clock
      const paused = pausedAt(at);
      const tokenId = "k" in act ? (m.tokens[act.k] as bigint) : 0n;
      switch (act.t) {
        case "list":
          await listAs(act.a, act.k, act.price);
          break;
        case "transfer": {
          const me = addrOf(act.a);
          const to = addrOf(act.to);
          const predicted = m.owner[act.k] === me;
          const ok = await call(act.a, "transferFrom", [me, to, tokenId], 0n, f.collectible);
          expectOutcome(act, predicted, ok);
          if (ok) moved(act.k, to);
          break;
        }
        case "update": {
          const me = addrOf(act.a);
          const predicted = !paused && live(act.k) && m.owner[act.k] === me;
          const ok = await call(act.a, "updatePrice", [tokenId, act.price]);
          expectOutcome(act, predicted, ok);
          const l = m.listing[act.k];
          if (ok && l) m.listing[act.k] = { ...l, price: act.price };
          break;
        }
        case "cancel": {
          const me = addrOf(act.a);
          const predicted = !!m.listing[act.k] && m.owner[act.k] === me;
          const ok = await call(act.a, "cancelListing", [tokenId]);
          expectOutcome(act, predicted, ok);
          if (ok) m.listing[act.k] = undefined;
          break;
        }
        case "buy": {
          const me = addrOf(act.a);
          const l = m.listing[act.k];
          const p = l?.price ?? ETH;
          const expected = act.stale ? p + 1n : p; // a stale expected price models a front-run update
          const predicted = !paused && !!l && !act.stale && live(act.k) && l.seller !== me;
          const ok = await call(act.a, "buy", [tokenId, expected], p);
          expectOutcome(act, predicted, ok);
          if (ok && l) {
            m.listing[act.k] = undefined;
            moved(act.k, me);
            split(act.k, p, l.seller, l.feeBps, l.royaltyBps);
          }
          break;
        }
        case "create": {
          const me = addrOf(act.a);
          const predicted = !paused && !live(act.k) && m.owner[act.k] === me && !!m.approved.get(me);
          const ok = await call(act.a, "createAuction", [tokenId, act.reserve, act.days]);
          expectOutcome(act, predicted, ok);
          if (ok) {
            m.listing[act.k] = undefined; // a dead listing is cleared
            moved(act.k, mp);
            m.auction[act.k] = {
              seller: me,
              reserve: act.reserve,
              days: BigInt(act.days),
              bidder: null,
              amount: act.reserve,
              endTime: 0n,
              feeBps: m.feeBps,
              royaltyBps: m.royaltyBps[act.k] as bigint,
              incrementBps: m.incrementBps,
            };
          }
          break;
        }
        case "bid": {
          const me = addrOf(act.a);
          const au = m.auction[act.k];
          let min = ETH;
          if (au) {
            // The increment agreed when the auction was created (decision 108), whatever the admin set since.
            const inc = percentOf(au.amount, au.incrementBps);
            min = au.bidder ? au.amount + (inc === 0n ? 1n : inc) : au.reserve;
          }
          const amount = act.kind === "below" ? min - 1n : act.kind === "exact" ? min : min + act.extra;
          const predicted =
            !paused &&
            !!au &&
            au.seller !== me &&
            amount >= min &&
            amount > 0n &&
            (!au.bidder || at < fairEnd(au.endTime, at));
          const ok = await call(act.a, "bid", [tokenId], amount);
          expectOutcome(act, predicted, ok);
          if (ok && au) {
            // No bid below the reserve or the increment may ever be accepted.
            expect(amount).toBeGreaterThanOrEqual(min);
            if (au.bidder) {
              credit(au.bidder, au.amount);
              if (au.endTime - at < WINDOW) au.endTime = at + WINDOW;
            } else {
              au.endTime = at + au.days * DAY;
            }
            au.bidder = me;
            au.amount = amount;
            const onChain = (await f.publicClient.readContract({
              address: mp,
              abi: diginoorMarketplaceAbi,
              functionName: "getAuction",
              args: [tokenId],
            })) as { endTime: number };
            expect(BigInt(onChain.endTime)).toBe(au.endTime);
          }
          break;
        }
        case "settle": {
          const au = m.auction[act.k];
          if (act.wait && au?.bidder && m.time + 1n < au.endTime) m.time = au.endTime - 1n;
          const t = m.time + 1n;
          const end = au?.bidder ? fairEnd(au.endTime, t) : 0n;
          const predicted =
            !!au && !!au.bidder && t >= end && (!pausedAt(t) || end <= (m.pausedAt as bigint));
          const ok = await call(act.a, "settle", [tokenId]);
          expectOutcome(act, predicted, ok);
          if (ok && au?.bidder) {
            moved(act.k, au.bidder);
            m.auction[act.k] = undefined;
            split(act.k, au.amount, au.seller, au.feeBps, au.royaltyBps);
          }
          break;
        }
        case "cancelAuction": {
          const me = addrOf(act.a);
          const au = m.auction[act.k];
          const predicted = !!au && au.seller === me && !au.bidder;
          const ok = await call(act.a, "cancelAuction", [tokenId]);
          expectOutcome(act, predicted, ok);
          if (ok && au) {
            moved(act.k, au.seller);
            m.auction[act.k] = undefined;
          }
          break;
        }
        case "withdraw": {
          const me = addrOf(act.a);
          // The re-entrant contract's pushed payouts may or may not fit in the payout gas: the model keeps
          // its balance and credit together, so what it can withdraw is read from the chain.
          const owed =
            me === reentrant
              ? ((await f.publicClient.readContract({
                  address: mp,
                  abi: diginoorMarketplaceAbi,
                  functionName: "pendingWithdrawals",
                  args: [me],
                })) as bigint)
              : (m.pending.get(me) ?? 0n);
          const predicted = owed > 0n;
          // The rejecting and gas-burning contracts withdraw to their operators.
          const ok =
            act.a === 4 || act.a === 5
              ? await call(act.a, "withdrawTo", [(act.a === 4 ? eve : operator).account.address])
              : await call(act.a, "withdraw", []);
          expectOutcome(act, predicted, ok);
          if (ok && act.a === STUDIO) {
            const st = stats.get("withdraw:studio") ?? { ok: 0, reverted: 0 };
            st.ok++;
            stats.set("withdraw:studio", st);
          }
          if (ok && me !== reentrant) {
            m.pending.set(me, 0n);
            credit(act.a === 4 ? eve.account.address : act.a === 5 ? operator.account.address : me, owed);
          }
          break;
        }
        case "purchase": {
          const me = addrOf(act.a);
          orderNumber += 1n;
          const { voucher, signature } = await makeVoucher(f, me, {
            priceWei: act.price,
            orderId: voucherOrderId(orderNumber),
            platformFeeBps: Number(m.primaryFeeBps),
            expiry: at + 3600n,
          });
          const ok = await call(act.a, "purchase", [voucher, signature], act.price);
          expectOutcome(act, !paused, ok);
          if (ok) {
            addToken(2n ** 64n + orderNumber, me, f.productionHouse);
            const fee = percentOf(act.price, m.primaryFeeBps);
            owe(f.productionHouse, act.price - fee);
            m.accrued += fee;
          }
          break;
        }
        case "purchaseInFlight": {
          // A voucher signed at today's primary fee; the fee then drops; the buyer redeems it (maybe later).
          const me = addrOf(act.a);
          orderNumber += 1n;
          const signedFee = m.primaryFeeBps;
          const expiry = at + 3600n;
          const { voucher, signature } = await makeVoucher(f, me, {
            priceWei: act.price,
            orderId: voucherOrderId(orderNumber),
            platformFeeBps: Number(signedFee),
            expiry,
          });
          const drop = signedFee - BigInt(act.drop) < 0n ? 0n : signedFee - BigInt(act.drop);
          expectOutcome(
            { t: "setFee", bps: Number(drop) },
            true,
            await call("admin", "setPrimaryFeeBps", [Number(drop)]),
          );
          const droppedAt = m.time;
          if (drop < m.primaryFeeBps) {
            const keep =
              droppedAt <= m.grace.until && m.grace.bps > m.primaryFeeBps ? m.grace.bps : m.primaryFeeBps;
            m.grace = { bps: keep, until: droppedAt + DAY };
          }
          m.primaryFeeBps = drop;
          if (act.wait) m.time += 1800n;
          const t = m.time + 1n;
          const feeOk = signedFee <= m.primaryFeeBps || (signedFee <= m.grace.bps && expiry <= m.grace.until);
          const predicted = !pausedAt(t) && t <= expiry && feeOk;
          const ok = await call(act.a, "purchase", [voucher, signature], act.price);
          expectOutcome(act, predicted, ok);
          if (ok) {
            addToken(2n ** 64n + orderNumber, me, f.productionHouse);
            const fee = percentOf(act.price, signedFee);
            owe(f.productionHouse, act.price - fee);
            m.accrued += fee;
          }
          break;
        }
        case "withdrawFees": {
          const ok = await call(act.a, "withdrawFees", []);
          expectOutcome(act, m.accrued > 0n, ok);
          if (ok) {
            credit(f.treasury, m.accrued);
            m.accrued = 0n;
          }
          break;
        }
        case "mint": {
          const me = addrOf(act.a);
          orderNumber += 1n;
          const ok = await call(
            "minter",
            "mintForOrder",
            [me, 9n, nextEdition(), f.productionHouse, toOrderId(orderNumber)],
            0n,
            f.collectible,
          );
          expectOutcome(act, true, ok);
          if (ok) addToken(orderNumber, me, f.productionHouse);
          break;
        }
        case "approval": {
          const me = addrOf(act.a);
          const ok = await call(act.a, "setApprovalForAll", [mp, act.approve], 0n, f.collectible);
          expectOutcome(act, true, ok);
          if (!act.approve && m.approved.get(me)) m.epoch.set(me, (m.epoch.get(me) ?? 0) + 1);
          m.approved.set(me, act.approve);
          break;
        }
        case "setFee": {
          const bps = BigInt(act.bps);
          const ok = await call("admin", "setFeeBps", [act.bps]);
          expectOutcome(act, true, ok);
          if (bps <= m.feeBps) {
            m.feeBps = bps;
            m.pendingFee = null;
          } else {
            m.pendingFee = { bps, at: at + WEEK };
          }
          break;
        }
        case "applyFees": {
          if (act.wait && !m.pendingFee && m.feeBps < 1000n) {
            const bps = m.feeBps + 100n > 1000n ? 1000n : m.feeBps + 100n;
            expectOutcome(
              { t: "setFee", bps: Number(bps) },
              true,
              await call("admin", "setFeeBps", [Number(bps)]),
            );
            m.pendingFee = { bps, at: m.time + WEEK };
          }
          if (act.wait && m.pendingFee && m.time + 1n < m.pendingFee.at) m.time = m.pendingFee.at - 1n;
          const at = m.time + 1n;
          // An announced increase applies from its time and lapses a week after it (decision 108).
          const due = !!m.pendingFee && at >= m.pendingFee.at && at <= m.pendingFee.at + WEEK;
          const ok = await call(0, "applyFeeIncreases", []);
          expectOutcome(act, due, ok);
          if (ok && m.pendingFee) {
            m.feeBps = m.pendingFee.bps;
            m.pendingFee = null;
          } else if (m.pendingFee && at > m.pendingFee.at + WEEK) {
            m.pendingFee = null; // lapsed: nothing left to apply
          }
          break;
        }
        case "setRoyalty": {
          // Refused while the token is escrowed in an auction; it bumps the version: a live listing dies.
          const receiver = m.royaltyReceiver[act.k] as Address;
          const ok = await call("admin", "setTokenRoyalty", [tokenId, receiver, act.bps], 0n, f.collectible);
          expectOutcome(act, m.owner[act.k] !== mp, ok);
          if (ok) {
            m.royaltyBps[act.k] = BigInt(act.bps);
            m.version[act.k] = (m.version[act.k] ?? 0) + 1;
          }
          break;
        }
        case "setIncrement": {
          const ok = await call("admin", "setMinIncrementBps", [act.bps]);
          expectOutcome(act, true, ok);
          if (ok) m.incrementBps = BigInt(act.bps);
          break;
        }
        case "pauseNearEnd": {
          // Pause shortly before (or at) the end of a running auction, then let time run past its end.
          const running = m.tokens.map((_, i) => i).filter((i) => !!m.auction[i]?.bidder);
          const k = running.length ? (running[act.k % running.length] as number) : act.k;
          const au = m.auction[k];
          if (au?.bidder && m.time + 1n < au.endTime - act.before) m.time = au.endTime - act.before - 1n;
          const t = m.time + 1n;
          const last = finishedPause(t);
          const predicted = !pausedAt(t) && (!last || t >= last[1] + 3600n);
          const ok = await call("admin", "pause", []);
          expectOutcome(act, predicted, ok);
          if (ok) {
            m.lastPause = last;
            m.pausedAt = t;
            m.time += act.before + 600n; // the auction's end passes during the pause
            if (act.thenBid && au?.bidder) {
              // Unpause, check the view shows the fair end at once, and bid in the window after the unpause.
              const u = m.time + 1n;
              const unpaused = pausedAt(u);
              expectOutcome({ t: "unpause" }, unpaused, await call("admin", "unpause", []));
              if (unpaused) {
                m.lastPause = [m.pausedAt as bigint, u];
                m.pausedAt = null;
              }
              const view = (await f.publicClient.readContract({
                address: mp,
                abi: diginoorMarketplaceAbi,
                functionName: "auctionEndsAt",
                args: [m.tokens[k] as bigint],
              })) as bigint;
              expect(view).toBe(fairEnd(au.endTime, m.time));
              const bidder = [0, 1, 2, 3].find(
                (b) => addrOf(b) !== au.seller && addrOf(b) !== au.bidder,
              ) as number;
              const inc = percentOf(au.amount, au.incrementBps);
              const amount = au.amount + (inc === 0n ? 1n : inc);
              const bt = m.time + 1n;
              const predictedBid = !pausedAt(bt) && bt < fairEnd(au.endTime, bt);
              const okBid = await call(bidder, "bid", [m.tokens[k] as bigint], amount);
              expectOutcome(
                { t: "bid", a: bidder, k, kind: "exact", extra: 0n, self: true },
                predictedBid,
                okBid,
              );
              if (okBid) {
                const st = stats.get("postPauseBid") ?? { ok: 0, reverted: 0 };
                st.ok++;
                stats.set("postPauseBid", st);
                credit(au.bidder, au.amount);
                if (au.endTime - bt < WINDOW) au.endTime = bt + WINDOW;
                au.bidder = addrOf(bidder);
                au.amount = amount;
              }
            }
          }
          break;
        }
        case "time":
          m.time += act.s;
          break;
        case "pause": {
          const last = finishedPause(at);
          const ok = await call("admin", "pause", []);
          expectOutcome(act, !paused && (!last || at >= last[1] + 3600n), ok);
          if (ok) {
            m.lastPause = last;
            m.pausedAt = at;
          }
          break;
        }
        case "unpause": {
          const ok = await call("admin", "unpause", []);
          expectOutcome(act, paused, ok);
          if (ok) {
            m.lastPause = [m.pausedAt as bigint, at];
            m.pausedAt = null;
          }
          break;
        }
      }
      await checkInvariants(m, parties);
    }
  } finally {
    await revertTo(f, snap);
  }
}

/** Parse a fast-check counterexample as printed (`[[{...,"price":12n}]]`) into actions. */
function parseCounterexample(text: string): Action[] {
  const json = text.replace(/__proto__:null,?/g, "").replace(/(-?\d+)n\b/g, '"$1n"');
  const parsed = JSON.parse(json, (_, v) =>
    typeof v === "string" && /^-?\d+n$/.test(v) ? BigInt(v.slice(0, -1)) : v,
  );
  return (Array.isArray(parsed[0]) ? parsed[0] : parsed) as Action[];
}

describe("marketplace fuzzing", () => {
  // FUZZ_REPLAY='<counterexample>' replays one failing sequence with full error output.
  it.runIf(!!process.env.FUZZ_REPLAY)("replays FUZZ_REPLAY", async () => {
    await runSequence(parseCounterexample(process.env.FUZZ_REPLAY ?? "[]"));
  });

  it(
    `random sequences keep every invariant (runs=${RUNS}, steps<=${STEPS})`,
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(actionArb, { minLength: Math.ceil(STEPS / 2), maxLength: STEPS, size: "max" }),
          runSequence,
        ),
        { numRuns: RUNS, endOnFailure: true, seed: SEED },
      );
      if (process.env.FUZZ_VERBOSE) console.log({ seed: SEED, ...Object.fromEntries(stats) });
      // With the default seed, the search must reach every path many times (successes, not only reverts).
      if (RUNS >= 10 && process.env.FUZZ_SEED === undefined) {
        const atLeast = Math.max(3, Math.floor(RUNS / 5));
        for (const t of [
          "list",
          "update",
          "cancel",
          "buy",
          "create",
          "bid",
          "settle",
          "withdraw",
          "withdraw:studio",
          "transfer",
          "purchase",
          "mint",
          "approval",
          "setFee",
          "applyFees",
          "setRoyalty",
          "setIncrement",
          "pauseNearEnd",
          "purchaseInFlight",
          "withdrawFees",
          "postPauseBid",
          "bid:contract",
          "buy:contract",
        ])
          expect(stats.get(t)?.ok ?? 0, t).toBeGreaterThanOrEqual(
            // Rarer paths get fixed minimums. A bid in the window after an unpause needs a running auction
            // whose end passed during a pause that could begin (cooldown); audit3.test.ts covers it
            // deterministically too. With issue 22's actions the default seed reaches a withdrawal twice
            // and a contract's purchase of a listing three times (every invariant held in all 25 runs).
            MINIMUM_OK[t] ?? atLeast,
          );
      }
    },
    // Generous: the fuzz shares the machine with other work (a loaded run took 18 minutes).
    60_000 + RUNS * STEPS * 3_000,
  );
});

async function checkInvariants(m: Model, parties: Address[]): Promise<void> {
  const mp = f.marketplace;
  const read = (
    functionName: string,
    args: readonly unknown[],
    address: Address = mp,
    abi: Abi = diginoorMarketplaceAbi as Abi,
  ) => f.publicClient.readContract({ address, abi, functionName, args } as never);
  const [mpBalance, accrued, auctions, owners, pendings, balances, nftBalances] = await Promise.all([
    f.publicClient.getBalance({ address: mp }),
    read("accruedFees", []) as Promise<bigint>,
    Promise.all(
      m.tokens.map(
        (t) =>
          read("getAuction", [t]) as Promise<{ seller: Address; highestBidder: Address; amount: bigint }>,
      ),
    ),
    Promise.all(
      m.tokens.map(
        (t) => read("ownerOf", [t], f.collectible, diginoorCollectibleAbi as Abi) as Promise<Address>,
      ),
    ),
    Promise.all(parties.map((p) => read("pendingWithdrawals", [p]) as Promise<bigint>)),
    Promise.all(parties.map((p) => f.publicClient.getBalance({ address: p }))),
    Promise.all(
      [...parties, mp].map(
        (p) => read("balanceOf", [p], f.collectible, diginoorCollectibleAbi as Abi) as Promise<bigint>,
      ),
    ),
  ]);
  // 1. ETH held == escrowed highest bids + withdrawable balances (on-chain view and model agree).
  const escrowed = auctions.reduce((s, a) => s + (a.highestBidder !== zeroAddress ? a.amount : 0n), 0n);
  const owed = pendings.reduce((s, x) => s + x, 0n);
  expect(mpBalance).toBe(escrowed + owed + accrued);
  expect(accrued).toBe(m.accrued);
  const modelEscrow = m.auction.reduce((s, a) => s + (a?.bidder ? a.amount : 0n), 0n);
  const reentrantOwed = pendings[parties.indexOf(reentrant)] ?? 0n;
  const modelOwed = [...m.pending.values()].reduce((s, x) => s + x, 0n) + reentrantOwed;
  expect(mpBalance).toBe(modelEscrow + modelOwed + m.accrued);
  for (const [i, p] of parties.entries()) {
    if (p !== reentrant) expect(pendings[i], `pending of ${p}`).toBe(m.pending.get(p) ?? 0n);
  }
  // 2. Each token has exactly one owner, the modelled one; the marketplace holds exactly the auctioned tokens.
  for (const [i, o] of owners.entries()) expect(o, `owner of token ${i}`).toBe(m.owner[i]);
  expect(nftBalances.reduce((s, x) => s + x, 0n)).toBe(BigInt(m.tokens.length));
  for (const [i, a] of auctions.entries()) expect(a.seller !== zeroAddress).toBe(owners[i] === mp);
  // 4. ETH conservation per party: start - paid - gas + received.
  // The re-entrant contract: what it holds plus what it is owed (its pushed payouts may fail either way).
  for (const [i, p] of parties.entries()) {
    const held = (balances[i] as bigint) + (p === reentrant ? reentrantOwed : 0n);
    expect(held, `ETH of ${p}`).toBe(m.balance.get(p));
  }
}
