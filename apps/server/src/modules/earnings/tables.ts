/** Tables this module owns whose Drizzle definitions are not written yet (scripts/check-tables.mjs reads this). */
export const ownedTables = ["studio_payouts"] as const;
