import { describe, expect, it } from "vitest";
import { ANVIL_ADDRESSES } from "../src/anvil-accounts.js";
import {
  type Fixture,
  eventOf,
  expectRevert,
  makeVoucher,
  minterMint,
  mp,
  nextOrderId,
  readCol,
  SIGNER_KEY,
  setEditionCount,
  setPrimaryTerms,
  useFixture,
  type Wallet,
} from "./fixture.js";

/**
 * Editions are facts on chain (issue 34 point 6, decision 184): each catalogue item's edition count is on the
 * collectible, and each edition mints at most once on every mint path, whoever signs the voucher. The vouchers
 * here are signed with the real signer key (SIGNER_ROLE): the leaked-key case.
 */
let f: Fixture;
useFixture((chain) => {
  f = chain;
});

const ITEM = 500n;
const buyerWallet = () => f.wallets[4] as Wallet;
const buyer = ANVIL_ADDRESSES[4];
const purchase = (v: Awaited<ReturnType<typeof makeVoucher>>) =>
  mp(f, buyerWallet(), "purchase", [v.voucher, v.signature], v.voucher.priceWei);
const editionsOf = async (id: bigint) => {
  const [count, registered] = await readCol<[number, boolean]>(f, "editions", [id]);
  return { count, registered };
};

async function item(count: number) {
  await setPrimaryTerms(f, ITEM, f.productionHouse, 0n);
  return setEditionCount(f, ITEM, count);
}

describe("an edition mints at most once, whoever signs the voucher", () => {
  it("a second voucher for an edition already minted reverts, signed by the real signer key", async () => {
    await item(10);
    const first = await makeVoucher(f, buyer, { catalogueNftId: ITEM, edition: 3, signerKey: SIGNER_KEY });
    await purchase(first);
    expect(await readCol(f, "isEditionMinted", [ITEM, 3])).toBe(true);
    // Another order id, a valid signature from SIGNER_ROLE: the edition is taken on chain.
    const second = await makeVoucher(f, buyer, { catalogueNftId: ITEM, edition: 3, signerKey: SIGNER_KEY });
    await expectRevert(purchase(second), "EditionAlreadyMinted");
    // Nor by the minter's path (card/INR orders).
    await expectRevert(minterMint(f, buyer, { catalogueNftId: ITEM, edition: 3 }), "EditionAlreadyMinted");
    // The other editions still mint.
    await purchase(await makeVoucher(f, buyer, { catalogueNftId: ITEM, edition: 4 }));
  });

  it("a card order's edition cannot be taken again by a voucher, nor the reverse", async () => {
    await item(10);
    await minterMint(f, buyer, { catalogueNftId: ITEM, edition: 7 });
    await expectRevert(
      purchase(await makeVoucher(f, buyer, { catalogueNftId: ITEM, edition: 7 })),
      "EditionAlreadyMinted",
    );
  });

  it("an out-of-range edition reverts on both paths: 0, above the count, and any edition of an unregistered item", async () => {
    await item(10);
    for (const edition of [0, 11, 65_535]) {
      await expectRevert(
        purchase(await makeVoucher(f, buyer, { catalogueNftId: ITEM, edition, signerKey: SIGNER_KEY })),
        "EditionOutOfRange",
      );
      await expectRevert(minterMint(f, buyer, { catalogueNftId: ITEM, edition }), "EditionOutOfRange");
    }
    await purchase(await makeVoucher(f, buyer, { catalogueNftId: ITEM, edition: 10 }));
    await minterMint(f, buyer, { catalogueNftId: ITEM, edition: 1 });
    // An item with terms but no edition count sells nothing.
    await setPrimaryTerms(f, 501n, f.productionHouse, 0n);
    await expectRevert(
      purchase(await makeVoucher(f, buyer, { catalogueNftId: 501n, edition: 1 })),
      "EditionOutOfRange",
    );
    await expectRevert(minterMint(f, buyer, { catalogueNftId: 501n, edition: 1 }), "EditionOutOfRange");
  });
});

describe("who sets an item's edition count", () => {
  it("the minter registers an item once and may lower it; only the admin raises it; never the voucher signer", async () => {
    expect(await editionsOf(ITEM)).toEqual({ count: 0, registered: false });
    const r = await setEditionCount(f, ITEM, 20);
    expect(eventOf(r, "EditionCountSet")).toMatchObject({
      catalogueNftId: ITEM,
      previousCount: 0,
      editionCount: 20,
    });
    expect(await editionsOf(ITEM)).toEqual({ count: 20, registered: true });
    await expectRevert(setEditionCount(f, ITEM, 21), "EditionCountRaise");
    await setEditionCount(f, ITEM, 12);
    // Lowered to 0 it stays registered: the minter cannot register it again with a larger count.
    await setEditionCount(f, ITEM, 0);
    expect(await editionsOf(ITEM)).toEqual({ count: 0, registered: true });
    await expectRevert(setEditionCount(f, ITEM, 5), "EditionCountRaise");
    // The admin (the multisig) raises it, in the open.
    const raised = await setEditionCount(f, ITEM, 30, f.admin);
    expect(eventOf(raised, "EditionCountSet")).toMatchObject({ previousCount: 0, editionCount: 30 });
    // Neither the voucher signer's address nor a stranger holds a role on the collectible.
    for (const w of [f.wallets[3] as Wallet, buyerWallet()]) {
      await expectRevert(setEditionCount(f, ITEM, 40, w), "AccessControlUnauthorizedAccount");
    }
    expect(await readCol(f, "hasRole", [await readCol(f, "MINTER_ROLE"), f.signer])).toBe(false);
  });

  it("nobody lowers a count below an edition that is minted, the admin included", async () => {
    await item(600);
    await minterMint(f, buyer, { catalogueNftId: ITEM, edition: 300 });
    for (const w of [f.minter, f.admin]) {
      await expectRevert(setEditionCount(f, ITEM, 299, w), "EditionCountBelowMinted");
      await expectRevert(setEditionCount(f, ITEM, 1, w), "EditionCountBelowMinted");
    }
    await setEditionCount(f, ITEM, 300);
    expect((await editionsOf(ITEM)).count).toBe(300);
    await expectRevert(minterMint(f, buyer, { catalogueNftId: ITEM, edition: 301 }), "EditionOutOfRange");
    // Editions in the first word: lowering to just above a minted one is fine, to it or below is not.
    await minterMint(f, buyer, { catalogueNftId: ITEM, edition: 5, orderId: nextOrderId() });
    await expectRevert(setEditionCount(f, ITEM, 4), "EditionCountBelowMinted");
  });
});
