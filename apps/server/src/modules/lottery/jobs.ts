// The lottery's background jobs (kept out of routes.ts: a route file maps HTTP only; main.ts attaches them by role).
import { formatPrice } from "@diginoor/api/money";
import type { Lottery } from "@diginoor/api/lottery";
import { z } from "zod";
import { defineJob } from "../../platform/jobs/jobs.ts";
import type { ModuleWork } from "../../platform/work.ts";
import { deliverOnce, lotteryWonMail } from "../mail/service.ts";
import type { UserMessageDeps } from "../notifications/service.ts";
import { type LotteryService, lotteryResults } from "./service.ts";

/**
 * Every minute (and at start): closes lotteries past their closing time and draws closed ones whose
 * block exists. Each step is a guarded move, so a crash between them resumes and never repeats.
 */
export function lotteryTickJob(lottery: Pick<LotteryService, "tick">, log: (o: object) => void = () => {}) {
  return defineJob({
    name: "lottery.tick",
    payload: z.object({}),
    retry: { limit: 2, delaySeconds: 10, backoff: false },
    expireInSeconds: 300,
    schedule: { cron: "* * * * *", payload: {} },
    handler: async () => {
      const counts = await lottery.tick();
      if (counts.closed || counts.drawn || counts.notActivated) log(counts);
    },
  });
}

/** The prize in words; a cash prize rupees first, then dollars, like every price (the day's stored rate). */
const prizeText = (l: Lottery, inrMicrosPerUsd: bigint | null) =>
  l.prize.kind === "pool"
    ? `a prize of ${formatPrice(
        { usdCents: l.prize.amountCents },
        inrMicrosPerUsd === null
          ? undefined
          : { inrMicrosPerUsd: inrMicrosPerUsd.toString(), usdMicrosPerToken: {} },
      )}`
    : (l.prizeNft?.title ?? "the NFT prize");

/** The stored rupee rate, or null when it cannot be read now (the prize is then told in dollars). */
async function rupeeRate(rates?: { inrMicrosPerUsd(): Promise<bigint> }): Promise<bigint | null> {
  try {
    return (await rates?.inrMicrosPerUsd()) ?? null;
  } catch {
    return null;
  }
}

/** What the winner is told happens next with their prize. */
function nextStep(l: Lottery): { text: string; link: string } {
  const state = l.prizeDelivery?.state;
  if (l.prize.kind === "pool")
    return {
      text: "Diginoor pays the prize to you; you are told when the payment is made.",
      link: `/lottery/${l.id}/verify`,
    };
  if (state === "awaiting_wallet")
    return {
      text: "Link a wallet to receive it: it is minted to your wallet as soon as you do.",
      link: "/wallet",
    };
  return { text: "It is being minted to your wallet.", link: `/lottery/${l.id}/verify` };
}

/**
 * Tells every player of a drawn lottery the result once (decision 161): the winner gets a
 * notification and a mail (once per job), every other player a notification; each notification's
 * source names the lottery and the player, so a retried job stores none twice.
 */
export function lotteryResultsJob(
  deps: UserMessageDeps & {
    /** The stored USD→INR rate (the quotes service), for a cash prize in rupees. */
    rates?: { inrMicrosPerUsd(): Promise<bigint> };
  },
  lottery: Pick<LotteryService, "resultFacts">,
) {
  return defineJob({
    name: lotteryResults.name,
    payload: lotteryResults.payload,
    retry: deps.mailer.retry,
    expireInSeconds: 600,
    handler: async ({ lotteryId }, job) => {
      const facts = await lottery.resultFacts(lotteryId);
      if (!facts) return;
      const l = facts.lottery;
      const ticket = l.draw?.winningTicket ?? 0;
      const next = nextStep(l);
      const prize = prizeText(l, l.prize.kind === "pool" ? await rupeeRate(deps.rates) : null);
      for (const p of facts.players) {
        const won = p.userId === facts.winnerUserId;
        await deps.notifications?.notify(
          p.userId,
          won
            ? {
                kind: "lottery_won",
                text: `You won ${l.name}! Your ticket ${ticket} was drawn: ${prize} is yours. ${next.text}`,
                link: next.link,
                source: `lottery-result:${lotteryId}:${p.userId}`,
              }
            : {
                kind: "lottery_result",
                text: `${l.name} was drawn: ticket ${ticket} won. Your ${p.tickets === 1 ? "ticket" : `${p.tickets} tickets`} did not win this time.`,
                link: `/lottery/${lotteryId}/verify`,
                source: `lottery-result:${lotteryId}:${p.userId}`,
              },
          { mail: false },
        );
      }
      const winner = facts.winnerUserId;
      if (!winner) return;
      await deliverOnce(deps, job.id, async (db) => {
        const contact = await deps.accounts.mailContact(winner, db);
        if (!contact) return null;
        return {
          to: contact.email,
          ...lotteryWonMail(contact.name, {
            lottery: l.name,
            ticket,
            prize,
            next: next.text,
            url: `${deps.publicUrl.replace(/\/$/, "")}${next.link}`,
          }),
        };
      });
    },
  });
}

/**
 * The lottery's background work: the tick (also enqueued when a worker starts: a process that
 * stopped at a closing time closes and draws now, not in a minute) and the players' results.
 */
export function lotteryWork(
  lottery: Pick<LotteryService, "tick" | "resultFacts">,
  deps: Parameters<typeof lotteryResultsJob>[0] & { log: (o: object) => void },
): ModuleWork {
  const tick = lotteryTickJob(lottery, deps.log);
  return { module: "lottery", jobs: [tick, lotteryResultsJob(deps, lottery)], onStart: [tick] };
}
