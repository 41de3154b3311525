// Reads of accounts for other modules (mail and checkout contacts, public profiles, the studio
// console's list) and the console's role change: plain functions over a database handle, which the
// accounts service (service.ts) binds; another module reaches them only through that service.
import type { Database, Db } from "../../db/client.ts";
import { AppError } from "../../http/errors.ts";
import { pageOf } from "../../lib/paging.ts";
import * as repo from "./repo.ts";
import type { UserRow } from "./tables.ts";

/**
 * Where another module mails a user (e.g. an order confirmation): the address and the name to greet,
 * or undefined for an unknown or suspended user. The name is only used once the address is verified.
 */
export async function mailContact(
  db: Db,
  userId: string,
): Promise<{ email: string; name: string | null; verified: boolean } | undefined> {
  const user = await repo.findUserById(db, userId);
  if (!user || user.suspendedAt) return undefined;
  return {
    email: user.email,
    name: user.emailVerifiedAt ? user.name : null,
    verified: !!user.emailVerifiedAt,
  };
}

/** What a payment provider's checkout is told about the buyer: email, and the phone on file. */
export async function checkoutContact(
  db: Db,
  userId: string,
): Promise<{ email: string; phone: string | null } | undefined> {
  const user = await repo.findUserById(db, userId);
  if (!user) return undefined;
  return { email: user.email, phone: user.phone ?? null };
}

// ---- the studio console (modules/admin calls these; decision 132)

/** An account as the console shows it (and as its audit log records it). */
export interface StaffView {
  id: string;
  name: string;
  email: string;
  role: UserRow["role"];
  productionHouseId: number | null;
  emailVerified: boolean;
  suspended: boolean;
  createdAt: string;
}

export function staffView(u: UserRow): StaffView {
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    role: u.role,
    productionHouseId: u.productionHouseId,
    emailVerified: u.emailVerifiedAt !== null,
    suspended: u.suspendedAt !== null,
    createdAt: u.createdAt.toISOString(),
  };
}

/** Accounts newest first (keyset on created_at, id), optionally matching `q` in name or email. */
export async function listAccounts(
  db: Db,
  o: { q?: string; cursor?: string; limit: number },
): Promise<{ items: StaffView[]; nextCursor: string | null }> {
  let after: { createdAt: Date; id: string } | undefined;
  if (o.cursor) {
    const [at, id] = Buffer.from(o.cursor, "base64url").toString("utf8").split("|");
    const createdAt = new Date(at ?? "");
    if (!id || Number.isNaN(createdAt.getTime())) {
      throw AppError.validation("query parameter", [{ field: "cursor", message: "is not a valid cursor" }]);
    }
    after = { createdAt, id };
  }
  const rows = await repo.listUsers(db, { q: o.q || undefined, after, limit: o.limit + 1 });
  return pageOf(rows, o.limit, staffView, (last) =>
    Buffer.from(`${last.createdAt.toISOString()}|${last.id}`).toString("base64url"),
  );
}

/** One account by id (404 when there is none). */
export async function getAccount(db: Db, id: string): Promise<UserRow> {
  const user = await repo.findUserById(db, id);
  if (!user) throw AppError.notFound("Account");
  return user;
}

/** What anyone may see of an account: its public profile (social module, issue 12). */
export interface PublicAccount {
  id: string;
  handle: string;
  name: string;
  avatarUrl: string | null;
  coverUrl: string | null;
  createdAt: Date;
}

const PUBLIC_COLUMNS = `id::text AS id, handle, name, avatar_url AS "avatarUrl", cover_url AS "coverUrl",
  created_at AS "createdAt"`;

/** The public profile of the active (not suspended) account with this handle, if any. */
export async function publicAccountByHandle(
  database: Pick<Database, "query">,
  handle: string,
): Promise<PublicAccount | undefined> {
  const rows = await database.query<PublicAccount>(
    `SELECT ${PUBLIC_COLUMNS} FROM users WHERE suspended_at IS NULL AND handle = $1`,
    [handle.toLowerCase()],
  );
  return rows[0];
}

/** Public profiles of active accounts by id (missing and suspended ones left out). */
export async function publicAccountsByIds(
  database: Pick<Database, "query">,
  ids: string[],
): Promise<Map<string, PublicAccount>> {
  if (ids.length === 0) return new Map();
  const rows = await database.query<PublicAccount>(
    `SELECT ${PUBLIC_COLUMNS} FROM users WHERE suspended_at IS NULL AND id = ANY($1::uuid[])`,
    [ids],
  );
  return new Map(rows.map((r) => [r.id, r]));
}

/** Gives an account a role (a studio account belongs to one production house); returns before and after. */
export async function setAccountRole(
  db: Db,
  id: string,
  role: UserRow["role"],
  productionHouseId: number | null,
): Promise<{ before: UserRow; after: UserRow }> {
  const before = await getAccount(db, id);
  const after = await repo.updateUser(db, id, {
    role,
    productionHouseId: role === "studio" ? productionHouseId : null,
  });
  if (!after) throw AppError.notFound("Account");
  // A changed role takes effect at the next request: sessions read the role fresh every time.
  return { before, after };
}

/** The ids of the live studio accounts of a production house (their KYC gates its payouts, decision 175). */
export function studioAccountIds(db: Db, houseId: number): Promise<string[]> {
  return repo.studioAccountIds(db, houseId);
}
