// The data rights (issue 25 point 2, decision 170): what each module is told about the person whose
// data it exports or erases. Each module contributes its own part through its service; the privacy
// module puts the parts together and never names another module's tables.
import type { Query } from "../db/query.ts";

/** The person: their account id, what identifies them in free text, and their linked wallets. */
export interface PersonalSubject {
  userId: string;
  email: string;
  name: string;
  phone: string | null;
  handle: string;
  /** Linked wallet addresses (checksummed as stored), read before the wallets are unlinked. */
  addresses: string[];
}

/** One module's part of the archive: named lists of records (or one record). */
export type PersonalPart = Record<string, unknown>;

/** What a module exports and erases; `erase` runs inside the erasure's one transaction. */
export interface PersonalDataContributor {
  module: string;
  export?(q: Query, s: PersonalSubject): Promise<PersonalPart>;
  erase?(q: Query, s: PersonalSubject): Promise<void>;
}

/**
 * The strings that identify the person in free text (mail bodies, job payloads, audit records):
 * email, handle, phone, and the name when it is long enough not to match ordinary words.
 */
export function needlesOf(s: Pick<PersonalSubject, "email" | "name" | "phone" | "handle">): string[] {
  const out = [s.email.toLowerCase(), s.handle.toLowerCase()];
  if (s.phone) out.push(s.phone.toLowerCase());
  if (s.name.trim().length >= 4) out.push(s.name.trim().toLowerCase());
  return out;
}

/**
 * An SQL condition true when the text expression `expr` contains any of the needles (case
 * insensitive), for a query whose parameter `$n` is the needles array.
 */
export function containsAny(expr: string, param: number): string {
  return `EXISTS (SELECT 1 FROM unnest($${param}::text[]) AS n WHERE strpos(lower(${expr}), n) > 0)`;
}
