// The tax module's part of the data rights (decision 170): the declared residence and every tax record
// are exported. Nothing is erased: tax records must be kept by law; they hold no name, email or phone
// and stay attached to the erased (pseudonymous) account row.
import type { Query } from "../../db/query.ts";
import type { PersonalSubject } from "../../lib/personal-data.ts";

export async function exportTax(q: Query, s: PersonalSubject) {
  return {
    profile: await q(
      `SELECT residence, specified_person AS "specifiedPerson", updated_at AS "updatedAt"
         FROM tax_profiles WHERE user_id = $1`,
      [s.userId],
    ),
    records: await q(
      `SELECT side, source, financial_year AS "financialYear", occurred_at AS "occurredAt", token_id::text AS "tokenId",
              title, paid_with AS "paidWith", amount_wei::text AS "amountWei", symbol, value_paise::text AS "valuePaise",
              rate_day::text AS "rateDay", tds_rate_bps AS "tdsRateBps", tds_paise::text AS "tdsPaise",
              tds_treatment AS "tdsTreatment", acquisition_paise::text AS "acquisitionPaise"
         FROM tax_records WHERE user_id = $1 ORDER BY occurred_at, id`,
      [s.userId],
    ),
  };
}
