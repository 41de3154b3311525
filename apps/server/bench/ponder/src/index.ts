// The same projections as our indexer's applyEvents (apps/server/src/modules/indexer/apply.ts), as
// Ponder indexing functions, so that both do the same work per event.
import { ponder } from "ponder:registry";
import { auction, bid, listing, notification, sale, token, transfer } from "ponder:schema";

const ZERO = "0x0000000000000000000000000000000000000000";
type Meta = {
  block: { number: bigint; timestamp: bigint };
  log: { logIndex: number };
  transaction: { hash: `0x${string}` };
};
const key = (e: Meta) => `${e.block.number}-${e.log.logIndex}`;
const base = (e: Meta, tokenId: bigint) => ({
  id: key(e),
  blockNumber: e.block.number,
  txHash: e.transaction.hash,
  blockTime: e.block.timestamp,
  tokenId,
});

ponder.on("Collectible:CollectibleMinted", async ({ event, context }) => {
  const a = event.args;
  await context.db
    .insert(token)
    .values({
      id: a.tokenId,
      nftNumber: a.catalogueNftId,
      edition: a.edition,
      owner: a.to,
      version: 0,
      royaltyReceiver: a.royaltyReceiver,
      royaltyBps: a.royaltyBps,
      mintedBlock: event.block.number,
    })
    .onConflictDoUpdate({
      nftNumber: a.catalogueNftId,
      edition: a.edition,
      royaltyReceiver: a.royaltyReceiver,
      royaltyBps: a.royaltyBps,
    });
});

ponder.on("Collectible:Transfer", async ({ event, context }) => {
  const a = event.args;
  // The mint's Transfer comes before its CollectibleMinted: the row is created by whichever is first.
  await context.db
    .insert(token)
    .values({
      id: a.tokenId,
      nftNumber: 0n,
      edition: 0,
      owner: a.to,
      version: 0,
      royaltyReceiver: ZERO,
      royaltyBps: 0,
      mintedBlock: event.block.number,
    })
    .onConflictDoUpdate((row) => ({ owner: a.to, version: a.from === ZERO ? row.version : row.version + 1 }));
  await context.db.insert(transfer).values({ ...base(event, a.tokenId), from: a.from, to: a.to });
});

ponder.on("Collectible:Approval", async ({ event, context }) => {
  await context.db.update(token, { id: event.args.tokenId }).set((row) => ({ version: row.version + 1 }));
});

ponder.on("Collectible:TokenRoyaltyUpdated", async ({ event, context }) => {
  const a = event.args;
  await context.db
    .update(token, { id: a.tokenId })
    .set((row) => ({ version: row.version + 1, royaltyReceiver: a.receiver, royaltyBps: a.royaltyBps }));
});

ponder.on("Marketplace:PrimaryPurchase", async ({ event, context }) => {
  const a = event.args;
  await context.db.insert(sale).values({
    ...base(event, a.tokenId),
    kind: "primary",
    seller: a.productionHouse,
    buyer: a.buyer,
    priceWei: a.price,
    royaltyWei: 0n,
    feeWei: a.platformFee,
  });
  await context.db.insert(notification).values({
    id: `${key(event)}-0`,
    blockNumber: event.block.number,
    kind: "purchase_confirmed",
    recipient: a.buyer,
    tokenId: a.tokenId,
    amountWei: a.price,
  });
});

ponder.on("Marketplace:Listed", async ({ event, context }) => {
  const a = event.args;
  const t = await context.db.find(token, { id: a.tokenId });
  if (!t) throw new Error(`Listed of unknown token ${a.tokenId}`);
  const values = {
    seller: a.seller,
    priceWei: a.price,
    tokenVersion: t.version,
    feeBps: a.feeBps,
    royaltyBps: a.royaltyBps,
  };
  await context.db
    .insert(listing)
    .values({ tokenId: a.tokenId, ...values })
    .onConflictDoUpdate(values);
  const au = await context.db.find(auction, { tokenId: a.tokenId });
  if (au && au.status !== "open") await context.db.delete(auction, { tokenId: a.tokenId });
});

ponder.on("Marketplace:ListingPriceUpdated", async ({ event, context }) => {
  await context.db.update(listing, { tokenId: event.args.tokenId }).set({ priceWei: event.args.newPrice });
});

ponder.on("Marketplace:ListingCancelled", async ({ event, context }) => {
  await context.db.delete(listing, { tokenId: event.args.tokenId });
});

const notify = (
  event: Meta,
  n: number,
  kind: string,
  recipient: `0x${string}`,
  tokenId: bigint,
  amountWei: bigint,
) => ({ id: `${key(event)}-${n}`, blockNumber: event.block.number, kind, recipient, tokenId, amountWei });

ponder.on("Marketplace:Sale", async ({ event, context }) => {
  const a = event.args;
  await context.db.delete(listing, { tokenId: a.tokenId });
  await context.db.insert(sale).values({
    ...base(event, a.tokenId),
    kind: "listing",
    seller: a.seller,
    buyer: a.buyer,
    priceWei: a.price,
    royaltyWei: a.royaltyAmount,
    feeWei: a.platformFee,
  });
  await context.db
    .insert(notification)
    .values([
      notify(event, 0, "nft_sold", a.seller, a.tokenId, a.price),
      notify(event, 1, "purchase_confirmed", a.buyer, a.tokenId, a.price),
    ]);
});

ponder.on("Marketplace:AuctionCreated", async ({ event, context }) => {
  const a = event.args;
  const values = {
    seller: a.seller,
    reserveWei: a.reservePrice,
    durationDays: a.durationDays,
    minIncrementBps: a.minIncrementBps,
    highestBidWei: null,
    highestBidder: null,
    endsAt: null,
    status: "open",
    settledVersion: null,
    createdBlock: event.block.number,
  };
  await context.db
    .insert(auction)
    .values({ tokenId: a.tokenId, ...values })
    .onConflictDoUpdate(values);
});

ponder.on("Marketplace:BidPlaced", async ({ event, context }) => {
  const a = event.args;
  await context.db
    .update(auction, { tokenId: a.tokenId })
    .set({ highestBidWei: a.amount, highestBidder: a.bidder, endsAt: a.endTime });
  await context.db.insert(bid).values({
    ...base(event, a.tokenId),
    bidder: a.bidder,
    amountWei: a.amount,
    endsAt: a.endTime,
  });
  if (a.previousBidder !== ZERO) {
    await context.db
      .insert(notification)
      .values(notify(event, 0, "outbid", a.previousBidder, a.tokenId, a.amount));
  }
});

ponder.on("Marketplace:AuctionExtended", async ({ event, context }) => {
  await context.db.update(auction, { tokenId: event.args.tokenId }).set({ endsAt: event.args.endTime });
});

ponder.on("Marketplace:AuctionCancelled", async ({ event, context }) => {
  await context.db.delete(auction, { tokenId: event.args.tokenId });
});

ponder.on("Marketplace:AuctionSettled", async ({ event, context }) => {
  const a = event.args;
  const t = await context.db.find(token, { id: a.tokenId });
  await context.db
    .update(auction, { tokenId: a.tokenId })
    .set({ status: "settled", settledVersion: t?.version ?? 0 });
  await context.db.insert(sale).values({
    ...base(event, a.tokenId),
    kind: "auction",
    seller: a.seller,
    buyer: a.winner,
    priceWei: a.amount,
    royaltyWei: a.royaltyAmount,
    feeWei: a.platformFee,
  });
  await context.db
    .insert(notification)
    .values([
      notify(event, 0, "auction_won", a.winner, a.tokenId, a.amount),
      notify(event, 1, "auction_ended", a.seller, a.tokenId, a.amount),
    ]);
});
