// The lottery module's tables. Their Drizzle definitions are not written yet: this list is what
// scripts/check-tables.mjs (npm run lint) reads to know who owns them; migrations are the source of truth.
export const ownedTables = ["lotteries", "lottery_entries", "lottery_ticket_lists"] as const;
