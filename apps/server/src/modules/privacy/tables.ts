/** Tables this module owns whose Drizzle definitions are not written yet (scripts/check-tables.mjs reads this). */
export const ownedTables = ["data_requests"] as const;
