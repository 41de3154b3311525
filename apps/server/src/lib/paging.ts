/**
 * One keyset page from `limit + 1` rows read: the first `limit`, and the cursor of the last of
 * them when a further row exists (null on the last page).
 */
export function pageOf<R, T>(
  rows: R[],
  limit: number,
  view: (row: R) => T,
  cursorOf: (row: R) => string,
): { items: T[]; nextCursor: string | null } {
  const shown = rows.slice(0, limit);
  const last = shown[shown.length - 1];
  return { items: shown.map(view), nextCursor: rows.length > limit && last ? cursorOf(last) : null };
}
