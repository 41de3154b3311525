// Tax records for Indian residents (issue 25 point 5, decision 176). A resident (not a specified
// person) with card and crypto purchases and three sales in one financial year, and a second resident
// who buys from them: each one's yearly CSV and PDF list exactly their own transactions, valued at the
// day's stored rate, and the s.194S TDS follows the configured rule (here 2% from that year, the
// ₹10,000 threshold crossed by the second sale; the year before at 1%, its big sale not counted).
import { randomBytes } from "node:crypto";
import { financialYearOf } from "@diginoor/api/tax";
import { PDFParse } from "pdf-parse";
import { getAddress } from "viem";
import { privateKeyToAccount, generatePrivateKey } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.ts";
import { ruleOf, tdsOf } from "../src/modules/tax/rules.ts";
import { linkFreshWallet } from "./card-orders.ts";
import { newNft, newSignedInUser } from "./factories.ts";
import { createTestApp, type TestApp } from "./harness.ts";

const CHAIN = 31337;
const ETH = 10n ** 18n;
let t: TestApp;
const q = <T = Record<string, unknown>>(text: string, params?: unknown[]) =>
  t.ctx.database.query<T>(text, params);

// The last complete financial year Y-(Y+1), whatever day the test runs on.
const current = financialYearOf(new Date());
const Y = Number(current.slice(0, 4)) - 1;
const FY = `${Y}-${String((Y + 1) % 100).padStart(2, "0")}`;
const PREV_FY = `${Y - 1}-${String(Y % 100).padStart(2, "0")}`;
const at = (month: number, day: number, year = Y) => new Date(Date.UTC(year, month - 1, day, 6, 30));

let block = 1000;
const hex = (n: number) => `0x${randomBytes(n).toString("hex")}`;
const newAddress = () => getAddress(privateKeyToAccount(generatePrivateKey()).address);

async function call(method: string, url: string, cookie?: string, body?: unknown) {
  const res = await t.app.inject({
    method: method as "GET",
    url,
    headers: {
      ...(cookie ? { cookie } : {}),
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
      origin: "http://localhost:3000",
    },
    payload: body === undefined ? undefined : JSON.stringify(body),
  });
  return {
    status: res.statusCode,
    json: () => res.json(),
    body: res.body,
    raw: res.rawPayload,
    headers: res.headers,
  };
}

async function catalogueNumber(nftId: string) {
  const [r] = await q<{ n: string }>("SELECT catalogue_number::text AS n FROM nfts WHERE id = $1", [nftId]);
  return r!.n;
}
async function title(nftId: string) {
  const [r] = await q<{ title: string }>("SELECT title FROM nfts WHERE id = $1", [nftId]);
  return r!.title;
}
async function token(tokenId: string, nftId: string, owner: string) {
  await q(
    `INSERT INTO indexer_tokens (chain_id, token_id, nft_number, edition, owner, royalty_receiver, royalty_bps, minted_block)
     VALUES ($1, $2, $3, 1, $4, $4, 1000, 1) ON CONFLICT DO NOTHING`,
    [CHAIN, tokenId, await catalogueNumber(nftId), owner],
  );
}
async function sale(kind: string, tokenId: string, seller: string, buyer: string, wei: bigint, when: Date) {
  block++;
  await q(
    `INSERT INTO indexer_sales (chain_id, block_number, log_index, tx_hash, block_time, token_id, kind, seller, buyer,
                                price_wei, royalty_wei, fee_wei)
     VALUES ($1, $2, 0, $3, $4, $5, $6, $7, $8, $9, 0, 0)`,
    [CHAIN, block, hex(32), when, tokenId, kind, seller, buyer, wei.toString()],
  );
}
/** A fulfilled card order paid in rupees; returns its token id (the order's number, or the listing's token). */
async function cardOrder(
  userId: string,
  nftId: string,
  paise: number,
  when: Date,
  resale?: { tokenId: string; seller: string; wei: bigint },
) {
  const [o] = await q<{ id: string; number: string }>(
    `INSERT INTO orders (user_id, nft_id, provider, state, edition, usd_cents, chain_id, pay_currency, pay_amount_minor,
                         kind, resale_token_id, listing_seller, price_wei, reserved_until, created_at, updated_at)
     VALUES ($1, $2, 'sandbox', 'fulfilled', $3, 3000, $4, 'inr', $5, $6, $7, $8, $9, $10, $10, $10)
     RETURNING id::text AS id, number::text AS number`,
    [
      userId,
      nftId,
      Math.floor(Math.random() * 1e6) + 1,
      CHAIN,
      paise,
      resale ? "resale" : "primary",
      resale?.tokenId ?? null,
      resale?.seller ?? null,
      resale?.wei.toString() ?? null,
      when,
    ],
  );
  await q(
    "INSERT INTO order_transitions (order_id, from_state, to_state, cause, at) VALUES ($1, 'minting', 'fulfilled', 'test', $2)",
    [o!.id, when],
  );
  return resale?.tokenId ?? o!.number;
}

interface Csv {
  header: string[];
  rows: Record<string, string>[];
}
function parseCsv(text: string): Csv {
  const lines = text.trim().split("\r\n");
  const split = (l: string) => {
    const cells: string[] = [];
    let cell = "";
    let quoted = false;
    for (let k = 0; k < l.length; k++) {
      const c = l[k]!;
      if (quoted && c === '"' && l[k + 1] === '"') {
        cell += '"';
        k++;
      } else if (c === '"') {
        quoted = !quoted;
      } else if (c === "," && !quoted) {
        cells.push(cell);
        cell = "";
      } else {
        cell += c;
      }
    }
    cells.push(cell);
    return cells;
  };
  const header = split(lines[0]!);
  return {
    header,
    rows: lines.slice(1).map((l) => Object.fromEntries(split(l).map((v, i) => [header[i]!, v]))),
  };
}

const nfts: Record<string, { id: string; title: string }> = {};
let alice: { id: string; cookie: string; wallet: string; name: string; email: string };
let bob: { id: string; cookie: string; wallet: string };
let primaryToken = "";

beforeAll(async () => {
  t = await createTestApp({
    RATES_TABLE: "ETH=3000,POL=0.25,INR=84.5",
    TDS_RULES: `2022-23:1%:50000:10000,${FY}:2%:50000:10000`,
  });
  for (const k of ["first", "listed", "auctioned", "old", "bobs", "today"]) {
    const id = await newNft(t.ctx);
    nfts[k] = { id, title: await title(id) };
  }
  const a = await newSignedInUser(t.ctx, { name: "Asha Resident" });
  alice = {
    id: a.user.id,
    cookie: a.cookie,
    wallet: await linkFreshWallet(t.ctx.database, a.user.id, CHAIN),
    name: "Asha Resident",
    email: a.user.email,
  };
  const b = await newSignedInUser(t.ctx);
  bob = { id: b.user.id, cookie: b.cookie, wallet: await linkFreshWallet(t.ctx.database, b.user.id, CHAIN) };
  const stranger = newAddress();
  const buyerKey = newAddress();

  // The day's stored rate of 1 May: $2,000 per ETH and ₹80 per dollar (later days without one use it).
  await q(
    `INSERT INTO daily_rates (day, usd_micros_per_token, inr_micros_per_usd, provider, recorded_at)
     VALUES ($1, '{"ETH": "2000000000", "POL": "250000"}', 80000000, 'table', now())`,
    [`${Y}-05-01`],
  );

  // The year before: Alice sells a token for 0.2 ETH (valued at today's rate: there is no earlier stored one).
  await token("9001", nfts.old!.id, alice.wallet);
  await sale("listing", "9001", alice.wallet, stranger, (2n * ETH) / 10n, at(3, 10));
  // Alice's year: a card purchase (₹2,500), a crypto purchase (0.5 ETH), then three sales.
  primaryToken = await cardOrder(alice.id, nfts.first!.id, 250_000, at(4, 20));
  await token(primaryToken, nfts.first!.id, alice.wallet);
  await token("9002", nfts.listed!.id, alice.wallet);
  await token("9003", nfts.auctioned!.id, alice.wallet);
  await sale("listing", "9002", stranger, alice.wallet, ETH / 2n, at(5, 1));
  // 1: 0.02 ETH to Bob's wallet = $40 = ₹3,200 (within ₹10,000).
  await sale("listing", primaryToken, alice.wallet, bob.wallet, (2n * ETH) / 100n, at(6, 10));
  // 2: 0.05 ETH bought by Bob by card (our buyer key pays) = ₹8,000: the year's ₹11,200 crosses ₹10,000.
  await sale("listing", "9002", alice.wallet, buyerKey, (5n * ETH) / 100n, at(7, 15));
  await cardOrder(bob.id, nfts.listed!.id, 800_000, at(7, 15), {
    tokenId: "9002",
    seller: alice.wallet,
    wei: (5n * ETH) / 100n,
  });
  // 3: an auction won by Bob's wallet, 0.01 ETH = ₹1,600 (the token came to Alice by a transfer: no cost known).
  await sale("auction", "9003", alice.wallet, bob.wallet, ETH / 100n, at(8, 1));
  // Bob's own card purchase, which must appear only in his statement.
  await cardOrder(bob.id, nfts.bobs!.id, 123_400, at(9, 9));
  // Today (this financial year): Alice sells 0.05 ETH at today's rate ($150 = ₹12,675).
  await token("9004", nfts.today!.id, alice.wallet);
  await sale("listing", "9004", alice.wallet, stranger, (5n * ETH) / 100n, new Date(Date.now() - 60_000));
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe("Statements", () => {
  it("refuses statements until the user declares Indian residence, and keeps no record of a non-resident", async () => {
    expect((await call("GET", "/api/v1/me/tax", alice.cookie)).json()).toEqual({
      residence: null,
      specifiedPerson: true,
    });
    const refused = await call("GET", `/api/v1/me/tax/statements/${FY}/csv`, alice.cookie);
    expect(refused.status).toBe(409);
    expect(refused.json().error.message).toMatch(/Indian tax residents/);
    await call("PUT", "/api/v1/me/tax", alice.cookie, { residence: "elsewhere", specifiedPerson: false });
    await t.ctx.services.tax.syncResidents();
    expect(await q("SELECT 1 FROM tax_records WHERE user_id = $1", [alice.id])).toHaveLength(0);
    const preview = await call("GET", `/api/v1/me/tax/tds-preview?priceWei=${ETH}`, alice.cookie);
    expect(preview.json()).toMatchObject({ resident: false, tdsPaise: "0" });
  });

  it("a resident's yearly CSV lists exactly their purchases and sales with the TDS of the configured rule", async () => {
    const put = await call("PUT", "/api/v1/me/tax", alice.cookie, {
      residence: "india",
      specifiedPerson: false,
    });
    expect(put.status).toBe(200);
    expect(put.json()).toEqual({ residence: "india", specifiedPerson: false });
    await call("PUT", "/api/v1/me/tax", bob.cookie, { residence: "india", specifiedPerson: true });

    const years = (await call("GET", "/api/v1/me/tax/statements", alice.cookie)).json();
    expect(years.items.map((y: { financialYear: string }) => y.financialYear)).toEqual([
      current,
      FY,
      PREV_FY,
    ]);
    expect(years.items[1]).toEqual({
      financialYear: FY,
      purchases: 2,
      sales: 3,
      tdsPaise: String(16_000 + 3_200),
    });

    const res = await call("GET", `/api/v1/me/tax/statements/${FY}/csv`, alice.cookie);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/csv/);
    expect(res.headers["content-disposition"]).toContain(`diginoor-tax-statement-${FY}.csv`);
    const csv = parseCsv(res.body);
    const pick = (r: Record<string, string>) => [
      r["Date (IST)"],
      r.Type,
      r.NFT,
      r["Token ID"],
      r["Paid with"],
      r["Rate day"],
      r["Value (INR)"],
      r["Acquisition cost (INR)"],
      r["Gain (INR)"],
      r["TDS rate"],
      r["TDS (INR)"],
    ];
    expect(csv.rows.map(pick)).toEqual([
      [`${Y}-04-20`, "Purchase", nfts.first!.title, primaryToken, "Card/UPI", "", "2500.00", "", "", "", ""],
      [
        `${Y}-05-01`,
        "Purchase",
        nfts.listed!.title,
        "9002",
        "Crypto",
        `${Y}-05-01`,
        "80000.00",
        "",
        "",
        "",
        "",
      ],
      [
        `${Y}-06-10`,
        "Sale",
        nfts.first!.title,
        primaryToken,
        "Crypto",
        `${Y}-05-01`,
        "3200.00",
        "2500.00",
        "700.00",
        "2%",
        "0.00",
      ],
      [
        `${Y}-07-15`,
        "Sale",
        nfts.listed!.title,
        "9002",
        "Crypto",
        `${Y}-05-01`,
        "8000.00",
        "80000.00",
        "-72000.00",
        "2%",
        "160.00",
      ],
      [
        `${Y}-08-01`,
        "Sale",
        nfts.auctioned!.title,
        "9003",
        "Auction (crypto)",
        `${Y}-05-01`,
        "1600.00",
        "",
        "",
        "2%",
        "32.00",
      ],
    ]);
    expect(csv.rows.map((r) => r["TDS treatment"])).toEqual([
      "",
      "",
      "Within the year's threshold: no TDS",
      "Deducted and deposited by Diginoor (bought by card/UPI)",
      "Not withheld (bought by a wallet on chain): account for it in your return",
    ]);
    expect(csv.rows[1]!["Crypto amount"]).toBe("0.5 ETH");
    // Nothing of Bob's, nor of the other years.
    for (const other of [nfts.bobs!.title, nfts.old!.title, nfts.today!.title, "1234.00"]) {
      expect(res.body).not.toContain(other);
    }
  });

  it("the year before has its own threshold and rule (1%), and the second resident sees only their own purchases", async () => {
    const prev = parseCsv((await call("GET", `/api/v1/me/tax/statements/${PREV_FY}/csv`, alice.cookie)).body);
    // 0.2 ETH at today's rate: $600 = ₹50,700, over ₹10,000: 1% = ₹507.
    expect(prev.rows.map((r) => [r.Type, r.NFT, r["Value (INR)"], r["TDS rate"], r["TDS (INR)"]])).toEqual([
      ["Sale", nfts.old!.title, "50700.00", "1%", "507.00"],
    ]);

    const bobs = parseCsv((await call("GET", `/api/v1/me/tax/statements/${FY}/csv`, bob.cookie)).body);
    expect(bobs.rows.map((r) => [r["Date (IST)"], r.Type, r.NFT, r["Paid with"], r["Value (INR)"]])).toEqual([
      [`${Y}-06-10`, "Purchase", nfts.first!.title, "Crypto", "3200.00"],
      [`${Y}-07-15`, "Purchase", nfts.listed!.title, "Card/UPI", "8000.00"],
      [`${Y}-08-01`, "Purchase", nfts.auctioned!.title, "Auction (crypto)", "1600.00"],
      [`${Y}-09-09`, "Purchase", nfts.bobs!.title, "Card/UPI", "1234.00"],
    ]);
    expect(bobs.rows.every((r) => r["TDS (INR)"] === "")).toBe(true);
  });

  it("the PDF lists the same transactions, totals and TDS, and nothing of another user", async () => {
    const res = await call("GET", `/api/v1/me/tax/statements/${FY}/pdf`, alice.cookie);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    expect(res.raw.subarray(0, 5).toString()).toBe("%PDF-");
    if (process.env.TAX_PDF_OUT)
      await import("node:fs/promises").then((fs) => fs.writeFile(process.env.TAX_PDF_OUT!, res.raw));
    const parser = new PDFParse({ data: new Uint8Array(res.raw) });
    const text = (await parser.getText()).text.replace(/\s+/g, " ");
    await parser.destroy();
    expect(text).toContain(`Tax statement, financial year ${FY}`);
    expect(text).toContain(`${alice.name} <${alice.email}>`);
    expect(text).toContain("2% of a sale once your sales in the year exceed ₹10,000");
    for (const s of [
      nfts.first!.title,
      nfts.listed!.title,
      nfts.auctioned!.title,
      "₹2,500", // card purchase
      "₹80,000", // crypto purchase, and the acquisition cost of 9002
      "₹3,200",
      "₹8,000",
      "₹1,600",
      "−₹72,000".replace("−", "-"),
      "₹160 (2%)",
      "₹32 (2%)",
      "₹82,500", // purchases total
      "₹12,800", // sales total
      "₹192", // TDS total
      "unknown",
    ]) {
      expect(text, s).toContain(s);
    }
    for (const other of [nfts.bobs!.title, nfts.old!.title, nfts.today!.title, "₹1,234"]) {
      expect(text).not.toContain(other);
    }
  });

  it("shows the seller the TDS of a sale before listing, from this year's recorded sales and the rule", async () => {
    // This year: ₹12,675 sold already (over ₹10,000), so 0.01 ETH (₹2,535 today) carries 2% = ₹50.70.
    const res = await call("GET", `/api/v1/me/tax/tds-preview?priceWei=${ETH / 100n}`, alice.cookie);
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({
      resident: true,
      financialYear: current,
      valuePaise: "253500",
      rateBps: 200,
      thresholdPaise: "1000000",
      soldThisYearPaise: "1267500",
      tdsPaise: "5070",
    });
    // Bob (a specified person, nothing sold this year): within ₹50,000, no TDS.
    expect(
      (await call("GET", `/api/v1/me/tax/tds-preview?priceWei=${ETH / 100n}`, bob.cookie)).json(),
    ).toMatchObject({
      resident: true,
      thresholdPaise: "5000000",
      soldThisYearPaise: "0",
      tdsPaise: "0",
    });
  });

  it("answers paise as exact decimal strings up to the largest price a listing holds, and refuses more (issue 37 point 9)", async () => {
    const max = 2n ** 96n - 1n; // a listing's price and an auction's reserve are uint96
    const res = await call("GET", `/api/v1/me/tax/tds-preview?priceWei=${max}`, alice.cookie);
    expect(res.status).toBe(200);
    // The raw JSON: no number in exponent form, every paise field a string of digits.
    expect(res.body).not.toMatch(/\de[+-]?\d/i);
    const p = res.json() as Record<string, unknown>;
    for (const k of ["valuePaise", "thresholdPaise", "soldThisYearPaise", "tdsPaise"])
      expect(p[k], k).toMatch(/^\d+$/);
    const value = BigInt(p.valuePaise as string);
    // ₹2,535 per 0.01 ETH today: max wei is worth max × 253,500 / 10^16 paise, to the stored rate's rounding.
    expect(value > 2n ** 53n).toBe(true);
    const exact = (max * 253_500n) / 10n ** 16n;
    expect(value - exact < 100n && exact - value < 100n, `${value} vs ${exact}`).toBe(true);
    const rule = ruleOf(t.ctx.config.TDS_RULES, current);
    expect(p.tdsPaise).toBe(
      tdsOf(rule, {
        valuePaise: value,
        soldBeforePaise: 1_267_500n,
        specifiedPerson: false,
      }).tdsPaise.toString(),
    );
    for (const over of [(max + 1n).toString(), `1${"0".repeat(77)}`, "2535".padEnd(67, "0")]) {
      const refused = await call("GET", `/api/v1/me/tax/tds-preview?priceWei=${over}`, alice.cookie);
      expect(refused.status, over).toBe(400);
      expect(refused.json()).toMatchObject({ error: { code: "validation_failed" } });
    }
  });

  it("records once: later runs and downloads add nothing and never re-value", async () => {
    const before = await q<{ n: number }>("SELECT count(*)::int AS n FROM tax_records");
    expect(await t.ctx.services.tax.syncResidents()).toBe(0);
    await call("GET", `/api/v1/me/tax/statements/${FY}/csv`, alice.cookie);
    expect(await q<{ n: number }>("SELECT count(*)::int AS n FROM tax_records")).toEqual(before);
  });

  it("serves each format with a Content-Type its OpenAPI operation declares, and declares no other", async () => {
    const doc = (await t.app.inject("/api/openapi.json")).json() as {
      paths: Record<string, { get: { responses: Record<string, { content?: Record<string, unknown> }> } }>;
    };
    const declared = Object.keys(
      doc.paths["/api/v1/me/tax/statements/{financialYear}/{format}"]!.get.responses["200"]!.content ?? {},
    ).sort();
    const served: string[] = [];
    for (const format of ["csv", "pdf"]) {
      const res = await call("GET", `/api/v1/me/tax/statements/${FY}/${format}`, alice.cookie);
      expect(res.status).toBe(200);
      const type = String(res.headers["content-type"]).split(";")[0]!.trim();
      expect(declared, format).toContain(type);
      served.push(type);
    }
    expect(served.sort()).toEqual(declared);
  });

  it("refuses a future year, a malformed year and another format", async () => {
    const next = Number(current.slice(0, 4)) + 1;
    const future = `${next}-${String((next + 1) % 100).padStart(2, "0")}`;
    expect((await call("GET", `/api/v1/me/tax/statements/${future}/csv`, alice.cookie)).status).toBe(404);
    expect((await call("GET", "/api/v1/me/tax/statements/2024-26/csv", alice.cookie)).status).toBe(400);
    expect((await call("GET", `/api/v1/me/tax/statements/${FY}/xlsx`, alice.cookie)).status).toBe(400);
    expect((await call("GET", `/api/v1/me/tax/statements/${FY}/csv`)).status).toBe(401);
  });
});

describe("TDS rules", () => {
  it("parses TDS_RULES per financial year and applies the rule in force", () => {
    const rules = loadConfig({
      CHAIN_DISABLED: "1",
      TDS_RULES: "2022-23:1%:50000:10000,2027-28:0.5%:60000:20000",
    }).TDS_RULES;
    expect(ruleOf(rules, "2021-22")).toBeUndefined();
    expect(ruleOf(rules, "2026-27")?.rateBps).toBe(100);
    expect(ruleOf(rules, "2030-31")).toEqual({
      fromYear: 2027,
      rateBps: 50,
      specifiedPaise: 6_000_000n,
      otherPaise: 2_000_000n,
    });
    const r = ruleOf(rules, "2026-27");
    // Within the threshold, at it exactly, and the sale that crosses it (its whole value is taxed).
    expect(
      tdsOf(r, { valuePaise: 400_000n, soldBeforePaise: 500_000n, specifiedPerson: false }).tdsPaise,
    ).toBe(0n);
    expect(
      tdsOf(r, { valuePaise: 500_000n, soldBeforePaise: 500_000n, specifiedPerson: false }).tdsPaise,
    ).toBe(0n);
    expect(
      tdsOf(r, { valuePaise: 500_001n, soldBeforePaise: 500_000n, specifiedPerson: false }).tdsPaise,
    ).toBe(5_000n);
    expect(
      tdsOf(r, { valuePaise: 500_001n, soldBeforePaise: 500_000n, specifiedPerson: true }).tdsPaise,
    ).toBe(0n);
    expect(() => loadConfig({ CHAIN_DISABLED: "1", TDS_RULES: "2022-24:1%:50000:10000" })).toThrow(
      /TDS_RULES/,
    );
    expect(() => loadConfig({ CHAIN_DISABLED: "1", TDS_RULES: "2022-23:101%:50000:10000" })).toThrow(
      /TDS_RULES/,
    );
  });
});
