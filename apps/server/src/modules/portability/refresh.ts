// ERC-4906 kept (issue 37 point 1, decision 180): a console edit that changes what minted tokens' metadata
// says is announced on chain. The console enqueues this job in the edit's own transaction (so a committed
// edit always has its job, and a crash before the send only delays it: pg-boss retries); the job maps the
// edited catalogue NFTs to the minted tokens at that moment and sends one `refreshMetadata(ranges)` with the
// minter key: MetadataUpdate(id) for a lone token, BatchMetadataUpdate(from, to) for a run of affected tokens
// with no unaffected minted token between them.
import { z } from "zod";
import type { JobRef } from "../../platform/jobs/jobs.ts";

/** The most ranges one refresh sends (about 1.5k gas each); beyond it, one range over all affected tokens. */
export const MAX_REFRESH_RANGES = 200;

export interface MetadataRefresh {
  /** Catalogue numbers of the NFTs whose metadata changed. */
  catalogueNumbers: number[];
  /** The console action that changed them (for the log). */
  reason: string;
}

export const refreshMetadataJob: JobRef<MetadataRefresh> = {
  name: "portability.refresh-metadata",
  payload: z.object({
    catalogueNumbers: z.array(z.number().int().nonnegative()).min(1).max(100_000),
    reason: z.string().max(100),
  }),
};

export interface TokenRange {
  fromTokenId: bigint;
  toTokenId: bigint;
}

/**
 * The ranges of token ids to announce: `tokens` are every minted token (ascending by id) with its catalogue
 * number, `affected` the catalogue numbers that changed. Each range holds affected tokens only (no unaffected
 * minted token inside), so marketplaces refetch exactly what changed. Above `max` ranges, one range from the
 * first to the last affected token (refetching a few unchanged tokens is harmless; one transaction per edit).
 */
export function refreshRanges(
  tokens: { tokenId: bigint; catalogueNumber: number }[],
  affected: ReadonlySet<number>,
  max = MAX_REFRESH_RANGES,
): TokenRange[] {
  const ranges: TokenRange[] = [];
  let open: TokenRange | undefined;
  for (const t of tokens) {
    if (!affected.has(t.catalogueNumber)) {
      open = undefined;
      continue;
    }
    if (open) open.toTokenId = t.tokenId;
    else {
      open = { fromTokenId: t.tokenId, toTokenId: t.tokenId };
      ranges.push(open);
    }
  }
  if (ranges.length > max) {
    return [
      {
        fromTokenId: (ranges[0] as TokenRange).fromTokenId,
        toTokenId: (ranges[ranges.length - 1] as TokenRange).toTokenId,
      },
    ];
  }
  return ranges;
}
