/**
 * ERC-7562 rule check of a user operation's validation (decision 181), for tests and CI on anvil: our local
 * Alto runs with its own checks off (`--safe-mode false`), and its JavaScript tracer, which anvil can run,
 * counts only precompiles 1-9, so it refuses OpenZeppelin's P-256 verification (a STATICCALL to 0x100) on
 * every chain. This check traces `EntryPoint.handleOps([op])` with `debug_traceCall` and a small
 * JavaScript tracer of ours, cuts the trace into ERC-7562's validation phases at the EntryPoint's own calls
 * (SenderCreator -> factory, sender.validateUserOp, paymaster.validatePaymasterUserOp, up to the
 * BeforeExecution event) and applies the rules below to each phase, with each entity's stake read from the
 * EntryPoint. It works for any account, factory and paymaster.
 *
 * Rules checked: OP-011 (blocked opcodes), OP-012 (GAS only before a *CALL), OP-031 (CREATE2 once, in the
 * factory phase), OP-041/042/062 (no *CALL or EXTCODE* of an address without code but the sender and the
 * precompiles 1-9, and 0x100 where the chain has it), OP-051/052/053/054 (the EntryPoint: EXTCODESIZE then
 * ISZERO, depositTo, the sender's plain call; nothing else), OP-061 (no value but to the EntryPoint),
 * OP-070 (TLOAD/TSTORE as storage), OP-080 (BALANCE/SELFBALANCE staked only), STO-010/021/022/031/032/033
 * (storage by entity and stake, association through the KECCAK256 inputs seen). Not checked: OP-020
 * (out-of-gas reverts), COD-010 (code changes between two validations) and the mempool's reputation and
 * local rules (STO-040/041, one operation at a time here).
 */
import {
  type Address,
  concat,
  encodeFunctionData,
  getAddress,
  type Hex,
  hexToBigInt,
  keccak256,
  pad,
  type PublicClient,
  slice,
} from "viem";
import { entryPoint08Abi } from "viem/account-abstraction";
import { ENTRYPOINT_ADDRESS, stakeInfo, stakeProblem } from "./wallets.js";

export type Phase = "factory" | "account" | "paymaster";

export interface Violation {
  rule: string;
  phase: Phase;
  /** The contract whose code did it. */
  address: Address;
  message: string;
}

export interface Erc7562Report {
  /** The phases seen in the trace, in order (the factory's only with initCode, the paymaster's only with one). */
  phases: Phase[];
  violations: Violation[];
  staked: Partial<Record<Phase, boolean>>;
  /** Whether the chain answers the P-256 precompile (RIP-7212 / EIP-7951) at 0x100. */
  p256Precompile: boolean;
}

/** The packed user operation, as handleOps takes it. */
export interface PackedOp {
  sender: Address;
  nonce: bigint;
  initCode: Hex;
  callData: Hex;
  accountGasLimits: Hex;
  preVerificationGas: bigint;
  gasFees: Hex;
  paymasterAndData: Hex;
  signature: Hex;
}

// keccak256("BeforeExecution()"): the EntryPoint emits it after every validation, before any execution.
const BEFORE_EXECUTION = "bb47ee3e183a558b1a2ff0874b079f3fc5478b7454eacf2bfc5af2ff5878f972";

/** geth-style JavaScript tracer (anvil runs them): a flat list of the events the rules need. */
const TRACER = `{
  ev: [], stop: false, gasAt: null, ext: null,
  num: function (v) { return parseInt(v.toString()); },
  addr: function (v) { return toHex(toAddress(v.toString(16))); },
  mem: function (log, o, l) { try { return toHex(log.memory.slice(o, o + l)); } catch (e) { return "0x"; } },
  step: function (log, db) {
    if (this.stop) return;
    var op = log.op.toString();
    var d = log.getDepth();
    if (this.gasAt !== null) { if (op.indexOf("CALL") < 0) this.ev.push(this.gasAt); this.gasAt = null; }
    if (this.ext !== null) { this.ext.next = op; this.ev.push(this.ext); this.ext = null; }
    if (d === 1) {
      if (op === "LOG1" && log.stack.peek(2).toString(16) === "${BEFORE_EXECUTION}") { this.stop = true; return; }
      if (op === "CALL" || op === "STATICCALL") {
        var o = this.num(log.stack.peek(op === "CALL" ? 3 : 2));
        this.ev.push({ d: 1, op: op, to: this.addr(log.stack.peek(1)), sel: this.mem(log, o, 4) });
      }
      return;
    }
    var a = toHex(log.contract.getAddress());
    if (op === "SLOAD" || op === "SSTORE" || op === "TLOAD" || op === "TSTORE") {
      this.ev.push({ d: d, op: op, a: a, slot: "0x" + log.stack.peek(0).toString(16) });
    } else if (op === "KECCAK256" || op === "SHA3") {
      var ko = this.num(log.stack.peek(0)), kl = this.num(log.stack.peek(1));
      if (kl <= 512) this.ev.push({ d: d, op: "KECCAK256", a: a, input: this.mem(log, ko, kl) });
    } else if (op === "CALL" || op === "CALLCODE" || op === "STATICCALL" || op === "DELEGATECALL") {
      var to = toAddress(log.stack.peek(1).toString(16));
      var withValue = op === "CALL" || op === "CALLCODE";
      var io = this.num(log.stack.peek(withValue ? 3 : 2)), il = this.num(log.stack.peek(withValue ? 4 : 3));
      this.ev.push({ d: d, op: op, a: a, to: toHex(to), size: db.getCode(to).length,
        value: withValue ? "0x" + log.stack.peek(2).toString(16) : "0x0", sel: il >= 4 ? this.mem(log, io, 4) : "0x" });
    } else if (op === "EXTCODESIZE" || op === "EXTCODEHASH" || op === "EXTCODECOPY") {
      var t = toAddress(log.stack.peek(0).toString(16));
      this.ext = { d: d, op: op, a: a, to: toHex(t), size: db.getCode(t).length };
    } else if (op === "GAS") {
      this.gasAt = { d: d, op: "GAS", a: a };
    } else if (/^(ORIGIN|GASPRICE|BLOCKHASH|COINBASE|TIMESTAMP|NUMBER|PREVRANDAO|DIFFICULTY|RANDOM|GASLIMIT|BASEFEE|BLOBHASH|BLOBBASEFEE|CREATE|CREATE2|INVALID|SELFDESTRUCT|BALANCE|SELFBALANCE)$/.test(op)) {
      this.ev.push({ d: d, op: op, a: a });
    } else if (op.indexOf("opcode") >= 0 || op.indexOf("0x") === 0) {
      this.ev.push({ d: d, op: "UNASSIGNED", a: a });
    }
  },
  fault: function () {},
  result: function () { return this.ev; }
}`;

type Ev = {
  d: number;
  op: string;
  a?: Hex;
  to?: Hex;
  sel?: Hex;
  slot?: Hex;
  input?: Hex;
  size?: number;
  value?: Hex;
  next?: string;
};

/** OP-011: blocked whatever the stake. */
const BLOCKED = new Set([
  "ORIGIN",
  "GASPRICE",
  "BLOCKHASH",
  "COINBASE",
  "TIMESTAMP",
  "NUMBER",
  "PREVRANDAO",
  "DIFFICULTY",
  "RANDOM",
  "GASLIMIT",
  "BASEFEE",
  "BLOBHASH",
  "BLOBBASEFEE",
  "CREATE",
  "INVALID",
  "SELFDESTRUCT",
  "UNASSIGNED",
]);
const DEPOSIT_TO = "0xb760faf9"; // depositTo(address)

/** OpenZeppelin's probe of the precompile (P256.sol): a valid signature with small r and s. */
export async function hasP256Precompile(client: PublicClient): Promise<boolean> {
  const data = concat([
    "0xbb5a52f42f9c9261ed4361f59422a1e30036e7c32b270c8807a419feca605023",
    pad("0x05"),
    pad("0x01"),
    "0xa71af64de5126a4a4e02b7922d66ce9415ce88a4c9d25514d91082c8725ac957",
    "0x5d47723c8fbe580bb369fec9c2665d8e30a435b9932645482e7c9f11e872296b",
  ]);
  const r = await client
    .call({ to: "0x0000000000000000000000000000000000000100", data })
    .catch(() => undefined);
  return r?.data !== undefined && r.data !== "0x" && hexToBigInt(r.data) === 1n;
}

/**
 * Trace the validation of `op` as the bundler's `from` key would submit it (handleOps at the latest
 * block) and return ERC-7562's violations per phase. Entities are staked when the EntryPoint holds a locked
 * stake of at least `minStakeWei` with an unstake delay of at least a day.
 */
export async function checkErc7562(opts: {
  client: PublicClient;
  op: PackedOp;
  from: Address;
  entryPoint?: Address;
  minStakeWei?: bigint;
}): Promise<Erc7562Report> {
  const { client, op } = opts;
  const entryPoint = getAddress(opts.entryPoint ?? ENTRYPOINT_ADDRESS);
  const sender = getAddress(op.sender);
  const factory = op.initCode.length >= 42 ? getAddress(slice(op.initCode, 0, 20)) : undefined;
  const paymaster =
    op.paymasterAndData.length >= 42 ? getAddress(slice(op.paymasterAndData, 0, 20)) : undefined;
  const senderCreator = getAddress(
    await client.readContract({ address: entryPoint, abi: entryPoint08Abi, functionName: "senderCreator" }),
  );
  const entity: Partial<Record<Phase, Address>> = { account: sender, factory, paymaster };
  const staked: Partial<Record<Phase, boolean>> = {};
  for (const [phase, addr] of Object.entries(entity) as [Phase, Address | undefined][]) {
    if (addr) staked[phase] = stakeProblem(await stakeInfo(client, addr), opts.minStakeWei) === undefined;
  }
  const p256Precompile = await hasP256Precompile(client);

  const data = encodeFunctionData({
    abi: entryPoint08Abi,
    functionName: "handleOps",
    args: [[op], opts.from],
  });
  const events = (await client.request({
    method: "debug_traceCall" as never,
    params: [{ from: opts.from, to: entryPoint, data }, "latest", { tracer: TRACER }] as never,
  })) as Ev[];

  // Slots associated with an address A: keccak(A || x) + n, n in 0..128, from the KECCAK256 inputs seen.
  const bases = new Map<string, bigint[]>();
  for (const e of events) {
    if (e.op !== "KECCAK256" || !e.input || e.input.length < 66) continue;
    const head = slice(e.input, 0, 32);
    if (hexToBigInt(head) >> 160n !== 0n) continue;
    const a = getAddress(slice(head, 12, 32));
    bases.set(a, [...(bases.get(a) ?? []), hexToBigInt(keccak256(e.input))]);
  }
  const associated = (slot: Hex, a: Address) => {
    const s = hexToBigInt(slot);
    if (s === hexToBigInt(a)) return true;
    return (bases.get(a) ?? []).some((b) => s >= b && s < b + 128n);
  };

  const violations: Violation[] = [];
  const phases: Phase[] = [];
  // Each event's phase: the EntryPoint's (depth 1) last call before it.
  const phaseOf: (Phase | undefined)[] = [];
  let current: Phase | undefined;
  for (const e of events) {
    if (e.d === 1) {
      const to = getAddress(e.to as Hex);
      current =
        to === senderCreator && factory
          ? "factory"
          : to === sender
            ? "account"
            : paymaster && to === paymaster
              ? "paymaster"
              : undefined;
      if (current && !phases.includes(current)) phases.push(current);
    }
    phaseOf.push(e.d === 1 ? undefined : current);
  }
  if (!phases.includes("account"))
    throw new Error(`no call to ${sender}'s validateUserOp in the trace of handleOps: nothing was checked`);
  // Slots each phase writes ("read-only access" of STO-033 is per phase).
  const writes = new Set<string>();
  events.forEach((e, i) => {
    if (e.op === "SSTORE" || e.op === "TSTORE") writes.add(`${phaseOf[i]} ${e.a} ${e.slot}`);
  });
  const creates = new Map<Phase, number>();
  let phase: Phase | undefined;
  const flag = (rule: string, at: Hex | undefined, message: string) => {
    if (phase)
      violations.push({ rule, phase, address: getAddress(at ?? "0x0"), message: `${phase}: ${message}` });
  };

  for (const [i, e] of events.entries()) {
    phase = phaseOf[i];
    if (!phase) continue;
    const isStaked = staked[phase] === true;
    const self = entity[phase];
    if (BLOCKED.has(e.op)) flag("OP-011", e.a, `uses the blocked opcode ${e.op}`);
    else if (e.op === "GAS") flag("OP-012", e.a, "uses GAS other than right before a *CALL");
    else if (e.op === "BALANCE" || e.op === "SELFBALANCE") {
      if (!isStaked) flag("OP-080", e.a, `unstaked, uses ${e.op}`);
    } else if (e.op === "CREATE2") {
      const n = (creates.get(phase) ?? 0) + 1;
      creates.set(phase, n);
      if (phase !== "factory" || n > 1)
        flag("OP-031", e.a, "CREATE2 outside the factory's one deployment of the sender");
    } else if (e.op.includes("CALL") || e.op.startsWith("EXTCODE")) {
      const to = getAddress(e.to as Hex);
      const n = hexToBigInt(to);
      const precompile = (n >= 1n && n <= 9n) || (n === 0x100n && p256Precompile);
      if (to === entryPoint) {
        if (e.op.startsWith("EXTCODE")) {
          if (!(e.op === "EXTCODESIZE" && e.next === "ISZERO"))
            flag("OP-051", e.a, `${e.op} of the EntryPoint`);
        } else {
          const plainFromSender = e.sel === "0x" && getAddress(e.a as Hex) === sender;
          if (e.sel !== DEPOSIT_TO && !plainFromSender)
            flag("OP-054", e.a, `calls the EntryPoint (${e.sel || "0x"}) other than depositTo`);
        }
      } else if ((e.size ?? 0) === 0 && !precompile && to !== sender) {
        flag(
          n === 0x100n ? "OP-062" : "OP-041",
          e.a,
          n === 0x100n
            ? `${e.op} of 0x100, the P-256 precompile, which this chain does not have`
            : `${e.op} of ${to}, which has no code`,
        );
      }
      if (e.value && hexToBigInt(e.value) !== 0n && to !== entryPoint)
        flag("OP-061", e.a, `CALL with value ${hexToBigInt(e.value)} to ${to}`);
    } else if (e.slot && e.a) {
      const at = getAddress(e.a);
      const slot = e.slot;
      if (at === sender || at === entryPoint) continue; // STO-010; the EntryPoint's deposits are its own
      const written = writes.has(`${phase} ${e.a} ${e.slot}`);
      const own = self !== undefined && at === self;
      const ofEntity = self !== undefined && associated(slot, self);
      if (associated(slot, sender)) {
        // STO-021 (the account exists), STO-022 (initCode and a staked factory); else a staked entity's
        // own rights (STO-031..033) still cover it, as in the bundlers' parsers.
        if (factory && !staked.factory && !isStaked)
          flag(
            "STO-022",
            at,
            `${e.op} of ${at} slot ${slot}, associated with a sender not yet deployed, and neither the factory nor the ${phase} is staked`,
          );
        continue;
      }
      if (own || ofEntity || !written) {
        if (!isStaked)
          flag(
            own ? "STO-031" : ofEntity ? "STO-032" : "STO-033",
            at,
            `unstaked, ${e.op} of ${own ? "its own storage" : at} slot ${slot}`,
          );
        continue;
      }
      flag("STO-010", at, `${e.op} writes ${at} slot ${slot}, storage neither the sender's nor its own`);
    }
  }
  // One finding per rule, contract and message is enough.
  const seen = new Set<string>();
  return {
    phases,
    staked,
    p256Precompile,
    violations: violations.filter((v) => {
      const k = `${v.rule} ${v.address} ${v.message}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    }),
  };
}

/** A readable list, for test failures. */
export function describeViolations(r: Erc7562Report): string {
  return r.violations.map((v) => `[${v.rule}] ${v.address} ${v.message}`).join("\n") || "none";
}
