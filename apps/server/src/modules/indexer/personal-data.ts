// The indexer's part of the data rights (decision 170): what the chain says about the person's
// linked wallets (bids, sales, transfers, tokens held). Public chain data: exported, never erased.
import type { Query } from "../../db/query.ts";
import type { PersonalSubject } from "../../lib/personal-data.ts";

export async function exportChainActivity(q: Query, s: PersonalSubject) {
  const addresses = s.addresses.map((a) => a.toLowerCase());
  const by = (col: string) => `lower(${col}) = ANY($1::text[])`;
  return {
    bids: await q(
      `SELECT chain_id AS "chainId", token_id::text AS "tokenId", bidder, amount_wei::text AS "amountWei",
              tx_hash AS "txHash", block_number::text AS "blockNumber", block_time AS "blockTime"
         FROM indexer_bids WHERE ${by("bidder")} ORDER BY block_number, log_index`,
      [addresses],
    ),
    sales: await q(
      `SELECT chain_id AS "chainId", token_id::text AS "tokenId", kind, seller, buyer, price_wei::text AS "priceWei",
              tx_hash AS "txHash", block_time AS "blockTime"
         FROM indexer_sales WHERE ${by("seller")} OR ${by("buyer")} ORDER BY block_number, log_index`,
      [addresses],
    ),
    transfers: await q(
      `SELECT chain_id AS "chainId", token_id::text AS "tokenId", from_address AS "from", to_address AS "to",
              tx_hash AS "txHash", block_time AS "blockTime"
         FROM indexer_transfers WHERE ${by("from_address")} OR ${by("to_address")} ORDER BY block_number, log_index`,
      [addresses],
    ),
    tokens: await q(
      `SELECT chain_id AS "chainId", token_id::text AS "tokenId", owner FROM indexer_tokens WHERE ${by("owner")}
        ORDER BY token_id`,
      [addresses],
    ),
  };
}
