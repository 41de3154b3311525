// The wallets module's part of the data rights (decision 170): linked wallets and passkeys are
// exported, with their recoveries; at erasure every wallet is unlinked (the addresses' on-chain history stays on chain).
import type { Query } from "../../db/query.ts";
import type { PersonalSubject } from "../../lib/personal-data.ts";

/** The addresses linked to the account now. */
export async function linkedAddresses(q: Query, userId: string): Promise<string[]> {
  const rows = await q<{ address: string }>("SELECT DISTINCT address FROM wallets WHERE user_id = $1", [
    userId,
  ]);
  return rows.map((r) => r.address);
}

export async function exportWallets(q: Query, s: PersonalSubject) {
  return {
    wallets: await q(
      `SELECT address, chain_id AS "chainId", kind, receives_purchases AS "receivesPurchases", linked_at AS "linkedAt", guardian
         FROM wallets WHERE user_id = $1 ORDER BY linked_at`,
      [s.userId],
    ),
    passkeys: await q(
      `SELECT credential_id AS "credentialId", address, created_at AS "createdAt"
         FROM passkey_credentials WHERE user_id = $1 ORDER BY created_at`,
      [s.userId],
    ),
    passkeyRequests: await q(
      `SELECT address, credential_id AS "credentialId", state, created_at AS "createdAt", finished_at AS "finishedAt"
         FROM wallet_passkey_requests WHERE user_id = $1 ORDER BY created_at`,
      [s.userId],
    ),
    recoveries: await q(
      `SELECT address, state, requested_at AS "requestedAt", new_credential_id AS "newCredentialId",
              executable_at AS "executableAt", finished_at AS "finishedAt"
         FROM wallet_recoveries WHERE user_id = $1 ORDER BY requested_at`,
      [s.userId],
    ),
    sponsoredOperations: await q(
      `SELECT sender, nonce, day::text AS day, max_cost_wei::text AS "maxCostWei", signed_at AS "signedAt"
         FROM sponsorships WHERE user_id = $1 ORDER BY signed_at`,
      [s.userId],
    ),
  };
}

export async function eraseWallets(q: Query, s: PersonalSubject) {
  await q("DELETE FROM wallet_nonces WHERE user_id = $1", [s.userId]);
  await q("DELETE FROM sponsorships WHERE user_id = $1", [s.userId]);
  await q("DELETE FROM wallet_recoveries WHERE user_id = $1", [s.userId]);
  await q("DELETE FROM wallet_passkey_requests WHERE user_id = $1", [s.userId]);
  await q("DELETE FROM passkey_credentials WHERE user_id = $1", [s.userId]);
  await q("DELETE FROM wallets WHERE user_id = $1", [s.userId]);
  await q("DELETE FROM wallet_link_history WHERE user_id = $1", [s.userId]);
}
