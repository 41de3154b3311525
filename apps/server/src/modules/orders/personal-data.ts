// The orders module's part of the data rights (decision 170): every order of the person with its
// transitions, refunds, provider events and prize mints is exported. Nothing is erased: payments
// and their tax records must be kept; they stay attached to the erased (pseudonymous) account row.
import type { Query } from "../../db/query.ts";
import type { PersonalSubject } from "../../lib/personal-data.ts";

export async function exportOrders(q: Query, s: PersonalSubject) {
  const orders = await q<{ id: string }>(
    `SELECT id::text AS id, number::text AS number, kind, nft_id AS "nftId", edition, lottery_id::text AS "lotteryId",
            ticket_count AS "ticketCount", resale_token_id::text AS "resaleTokenId", provider, state,
            usd_cents::text AS "usdCents", pay_currency AS "payCurrency", pay_amount_minor::text AS "payAmountMinor",
            chain_id AS "chainId", price_wei::text AS "priceWei", buyer_address AS "buyerAddress", tx_hash AS "txHash",
            created_at AS "createdAt", updated_at AS "updatedAt"
       FROM orders WHERE user_id = $1 ORDER BY created_at`,
    [s.userId],
  );
  const ids = orders.map((o) => o.id);
  return {
    orders,
    transitions: await q(
      `SELECT order_id::text AS "orderId", from_state AS "from", to_state AS "to", cause, at
         FROM order_transitions WHERE order_id = ANY($1::uuid[]) ORDER BY order_id, id`,
      [ids],
    ),
    refunds: await q(
      `SELECT order_id::text AS "orderId", reason, amount_minor::text AS "amountMinor", currency, state, created_at AS "createdAt"
         FROM order_refunds WHERE order_id = ANY($1::uuid[]) ORDER BY created_at`,
      [ids],
    ),
    paymentEvents: await q(
      `SELECT order_id::text AS "orderId", provider, type, outcome, received_at AS "receivedAt"
         FROM payment_events WHERE order_id = ANY($1::uuid[]) ORDER BY received_at`,
      [ids],
    ),
    prizes: await q(
      `SELECT source, nft_id AS "nftId", edition, state, address, tx_hash AS "txHash", created_at AS "createdAt"
         FROM prize_mints WHERE user_id = $1 ORDER BY created_at`,
      [s.userId],
    ),
  };
}
