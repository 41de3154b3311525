// A passkey wallet driven by permissionless (Pimlico's smart account client, nobody here wrote it): the
// fan links a passkey wallet through the API, then permissionless estimates, asks our server for the
// sponsorship (POST /api/v1/paymaster), signs with the passkey and sends through `/api/v1/bundler`, and
// waits for the receipt there. The same client then tries another fan's wallet, which must be refused.
import {
  bundlerFeesPerGas,
  diginoorPaymasterFields,
  sponsorshipRequest,
  toPasskeyAccount,
} from "@diginoor/contracts/passkey-account";
import { createSoftwarePasskey } from "@diginoor/contracts/software-passkey";
import { diginoorCollectibleAbi } from "@diginoor/contracts/generated/diginoorCollectible";
import { createSmartAccountClient } from "permissionless";
import {
  type Address,
  type Chain,
  createPublicClient,
  defineChain,
  encodeFunctionData,
  type Hex,
  http,
} from "viem";
import { estimateFeesPerGas } from "viem/actions";
import type { Check, Client } from "./client.ts";

/** The innermost message of an error and its causes (permissionless wraps what our server answered). */
function rootMessage(err: unknown): string {
  let e = err as { cause?: unknown; shortMessage?: string; message?: string } | undefined;
  let last = String((e as Error)?.message ?? err);
  while (e) {
    last = e.shortMessage ?? e.message ?? last;
    e = e.cause as typeof e;
  }
  return last.split("\n")[0] ?? last;
}

interface ChainFacts {
  chainId: number;
  rpcUrl: string | null;
  collectible: Address;
  marketplace: Address;
  accountFactory: Address;
  paymaster: Address;
  bundlerUrl: string | null;
}

async function linkedPasskeyWallet(base: string, fan: Client) {
  const passkey = createSoftwarePasskey({ origin: base, rpId: new URL(base).hostname });
  const nonce = (await fan.req("POST", "/api/v1/wallets/nonce", {})).json.nonce as string;
  const challenge = Buffer.from(nonce, "utf8");
  const res = await fan.req("POST", "/api/v1/wallets/passkey", {
    nonce,
    credentialId: passkey.id,
    registration: passkey.register(challenge),
    assertion: passkey.authenticate(challenge),
  });
  if (res.status !== 201) throw new Error(`passkey wallet: ${res.status} ${res.text}`);
  return { passkey, address: res.json.address as Address };
}

export async function interopSmartAccountChecks(base: string, fan: Client, other: Client): Promise<Check[]> {
  const out: Check[] = [];
  const facts = (await fan.req("GET", "/api/v1/chain")).json as ChainFacts;
  if (!facts.rpcUrl || !facts.bundlerUrl)
    throw new Error("the probe needs the server's local chain and bundler");
  const chain: Chain = defineChain({
    id: facts.chainId,
    name: "diginoor-local",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [facts.rpcUrl] } },
  });
  const publicClient = createPublicClient({ chain, transport: http(facts.rpcUrl) });
  const { passkey, address } = await linkedPasskeyWallet(base, fan);
  const account = await toPasskeyAccount({
    client: publicClient as never,
    factory: facts.accountFactory,
    owner: passkey.account,
    address,
  });
  const clientFor = (who: Client) =>
    createSmartAccountClient({
      account,
      chain,
      client: publicClient,
      bundlerTransport: http(`${base}/api/v1/bundler`, {
        fetchOptions: { headers: who.headers() },
        retryCount: 0,
      }),
      paymaster: diginoorPaymasterFields(facts.paymaster, async (op) => {
        const res = await who.req("POST", "/api/v1/paymaster", sponsorshipRequest(facts.paymaster, op));
        if (res.status !== 200)
          throw new Error(`sponsorship ${res.status}: ${res.json?.error?.message ?? res.text}`);
        return res.json.paymasterData as Hex;
      }),
      userOperation: {
        estimateFeesPerGas: ({ bundlerClient }) =>
          bundlerFeesPerGas(bundlerClient as never, () => estimateFeesPerGas(publicClient)),
      },
    });
  const approve = {
    to: facts.collectible,
    data: encodeFunctionData({
      abi: diginoorCollectibleAbi,
      functionName: "setApprovalForAll",
      args: [facts.marketplace, true],
    }),
  };
  const mine = clientFor(fan);
  const started = Date.now();
  let observed: string;
  let ok = false;
  try {
    const hash = await mine.sendUserOperation({ calls: [approve] });
    const receipt = await mine.waitForUserOperationReceipt({ hash, timeout: 60_000 });
    const approved = await publicClient.readContract({
      address: facts.collectible,
      abi: diginoorCollectibleAbi,
      functionName: "isApprovedForAll",
      args: [address, facts.marketplace],
    });
    ok = receipt.success && approved;
    observed = `included (success ${receipt.success}, paymaster ${receipt.paymaster?.slice(0, 10)}…, approved ${approved}) in ${((Date.now() - started) / 1000).toFixed(1)} s`;
  } catch (err) {
    observed = `refused: ${rootMessage(err)}`;
  }
  out.push({
    area: "permissionless",
    probe:
      "createSmartAccountClient: a sponsored first operation (deploy + approve) of the fan's passkey wallet",
    expected: "included, paid by our paymaster",
    observed,
    ok,
  });
  // The same wallet's operation sent by another signed-in fan: neither sponsored nor relayed.
  let theirs = "sent";
  try {
    await clientFor(other).sendUserOperation({ calls: [approve] });
  } catch (err) {
    theirs = `refused: ${rootMessage(err).slice(0, 160)}`;
  }
  out.push({
    area: "permissionless",
    probe: "the same wallet's operation, sponsored and sent by another signed-in fan",
    expected: "refused",
    observed: theirs,
    ok: theirs.startsWith("refused"),
  });
  return out;
}
