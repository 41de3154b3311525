// The orders module's tables. Their Drizzle definitions are not written yet: this list is what
// scripts/check-tables.mjs (npm run lint) reads to know who owns them; migrations are the source of truth.
export const ownedTables = [
  "orders",
  "order_transitions",
  "primary_auctions",
  "payment_events",
  "order_refunds",
  "prize_mints",
] as const;
