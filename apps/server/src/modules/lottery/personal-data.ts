// The lottery module's part of the data rights (decision 170): the person's tickets (entries) and
// the lotteries they won. Nothing is erased: entries are paid orders and part of a published draw.
import type { Query } from "../../db/query.ts";
import type { PersonalSubject } from "../../lib/personal-data.ts";

export async function exportLottery(q: Query, s: PersonalSubject) {
  return {
    tickets: await q(
      `SELECT e.lottery_id::text AS "lotteryId", l.name AS "lotteryName", e.order_id::text AS "orderId",
              e.first_ticket::text AS "firstTicket", e.last_ticket::text AS "lastTicket", e.paid_at AS "paidAt"
         FROM lottery_entries e JOIN lotteries l ON l.id = e.lottery_id
        WHERE e.user_id = $1 ORDER BY e.paid_at`,
      [s.userId],
    ),
    won: await q(
      `SELECT id::text AS "lotteryId", name, winning_ticket::text AS "winningTicket", drawn_at AS "drawnAt"
         FROM lotteries WHERE winner_user_id = $1 ORDER BY drawn_at`,
      [s.userId],
    ),
  };
}
