import type { NftSort } from "@diginoor/api/catalogue";
import { AppError } from "../../http/errors.ts";

/**
 * Keyset cursor of GET /api/v1/nfts: the sort order, the last row's sort key and its id, as
 * base64url JSON. Opaque to clients; validated strictly, so a tampered or foreign cursor is a 400
 * naming `cursor`, never a 500.
 */
export type NftCursor =
  | { sort: "newest"; createdAtMicros: string; id: string }
  | { sort: "price_asc" | "price_desc"; priceUsdCents: number; id: string }
  | { sort: "title"; sortTitle: string; id: string };

const ID = /^[A-Za-z0-9_-]{1,64}$/;
const MICROS = /^-?\d{1,19}$/;

export function encodeCursor(c: NftCursor): string {
  const key = c.sort === "newest" ? c.createdAtMicros : c.sort === "title" ? c.sortTitle : c.priceUsdCents;
  return Buffer.from(JSON.stringify([c.sort, key, c.id]), "utf8").toString("base64url");
}

function invalid(message: string): AppError {
  return AppError.validation("query parameter", [{ field: "cursor", message }]);
}

/** Decodes a cursor made for `sort`; throws a 400 naming `cursor` when it is not one. */
export function decodeCursor(raw: string, sort: NftSort): NftCursor {
  if (!/^[A-Za-z0-9_-]+$/.test(raw)) throw invalid("is not a valid cursor");
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
  } catch {
    throw invalid("is not a valid cursor");
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) throw invalid("is not a valid cursor");
  const [s, key, id] = parsed as unknown[];
  if (typeof id !== "string" || !ID.test(id)) throw invalid("is not a valid cursor");
  if (s !== sort) throw invalid(`belongs to another sort order; start again without a cursor`);
  switch (sort) {
    case "newest":
      if (typeof key !== "string" || !MICROS.test(key)) throw invalid("is not a valid cursor");
      return { sort, createdAtMicros: key, id };
    case "price_asc":
    case "price_desc":
      if (typeof key !== "number" || !Number.isSafeInteger(key) || key < 0)
        throw invalid("is not a valid cursor");
      return { sort, priceUsdCents: key, id };
    case "title":
      if (typeof key !== "string" || key.length > 400 || key.includes("\u0000"))
        throw invalid("is not a valid cursor");
      return { sort, sortTitle: key, id };
  }
}
