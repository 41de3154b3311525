/** Tables this module owns whose Drizzle definitions are not written yet (scripts/check-tables.mjs reads this). */
export const ownedTables = ["kyc_checks", "kyc_events"] as const;
