// SQL of the studio earnings (decision 174): only the payouts are stored; earnings are derived.
import type { Query } from "../../db/query.ts";

export interface PayoutRow {
  id: string;
  production_house_id: number;
  currency: "inr" | "usd" | "wei";
  amount: string;
  reference: string;
  created_at: Date;
}

const COLUMNS = "id, production_house_id, currency, amount::text AS amount, reference, created_at";

export function payoutsOf(q: Query, houseId: number): Promise<PayoutRow[]> {
  return q<PayoutRow>(
    `SELECT ${COLUMNS} FROM studio_payouts WHERE production_house_id = $1 ORDER BY created_at, id`,
    [houseId],
  );
}

/** Serialises payouts of one house (two administrators at once cannot both spend one balance). */
export async function lockHouse(q: Query, houseId: number): Promise<void> {
  await q("SELECT pg_advisory_xact_lock(7272174, $1)", [houseId]);
}

export async function insertPayout(
  q: Query,
  p: { houseId: number; currency: string; amount: bigint; reference: string; by: string; now: Date },
): Promise<PayoutRow> {
  const [row] = await q<PayoutRow>(
    `INSERT INTO studio_payouts (production_house_id, currency, amount, reference, paid_by, created_at)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
    [p.houseId, p.currency, p.amount.toString(), p.reference, p.by, p.now],
  );
  return row as PayoutRow;
}
