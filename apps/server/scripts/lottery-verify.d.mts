// Types of lottery-verify.mjs (plain JavaScript, run by node itself) for the TypeScript that imports it.

/** The parts of GET /api/v1/lotteries/{id} the verification reads. */
export interface PublicLottery {
  id: string;
  state: string;
  ticketsSold: number;
  seedHash: string;
  drawBlocks: number;
  closeBlock: number | null;
  ticketListHash: string | null;
  draw: {
    seed: string;
    blockNumber: number;
    blockHash: string;
    ticketListHash: string;
    winningTicket: number;
  } | null;
}

export interface Verification {
  ok: boolean;
  /** Each check with what was expected and found. */
  checks: { name: string; ok: boolean; detail: string }[];
  recomputedWinningTicket: number | null;
}

export function parseTicketsCsv(csv: Uint8Array | string): {
  ranges: { first: number; last: number; holder: string }[];
  total: number;
  problems: string[];
};

export function verifyDraw(
  lottery: PublicLottery,
  csv: Uint8Array,
  chainBlockHash: string | null,
): Verification;
