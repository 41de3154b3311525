// The yearly tax statement of a resident (decision 176) as CSV (for spreadsheets: plain rupee amounts
// with two decimals) and PDF (rupees written by money.ts, the one formatter, set in DejaVu Sans, which
// has the ₹ sign). Both list the year's purchases and sales, each sale's TDS and acquisition cost.
import { existsSync } from "node:fs";
import { formatInr, formatNative } from "@diginoor/api/money";
import { csvDecimal, toCsv } from "../../lib/csv.ts";
import type { TdsRule } from "./rules.ts";
import type { TaxRecordRow } from "./tables.ts";

export interface StatementFacts {
  user: { name: string; email: string };
  financialYear: string;
  specifiedPerson: boolean;
  rule: TdsRule | undefined;
  records: TaxRecordRow[];
  generatedAt: Date;
}

export const treatmentText: Record<TaxRecordRow["tdsTreatment"], string> = {
  not_applicable: "—",
  below_threshold: "Within the year's threshold: no TDS",
  deposited_by_diginoor: "Deducted and deposited by Diginoor (bought by card/UPI)",
  not_withheld: "Not withheld (bought by a wallet on chain): account for it in your return",
};

/** Paise as a plain rupee amount with two decimals: 1250050 → "12500.50". */
export function rupees(paise: bigint): string {
  const negative = paise < 0n;
  const abs = negative ? -paise : paise;
  return `${negative ? "-" : ""}${abs / 100n}.${String(abs % 100n).padStart(2, "0")}`;
}

/** A moment as its date in India Standard Time: "2026-05-04". */
export function istDate(at: Date): string {
  return new Date(at.getTime() + 330 * 60_000).toISOString().slice(0, 10);
}

const pct = (bps: number) => `${(bps / 100).toFixed(2).replace(/\.?0+$/, "")}%`;

export function totalsOf(records: TaxRecordRow[]) {
  const sum = (rows: TaxRecordRow[], f: (r: TaxRecordRow) => bigint) => rows.reduce((a, r) => a + f(r), 0n);
  const purchases = records.filter((r) => r.side === "purchase");
  const sales = records.filter((r) => r.side === "sale");
  return {
    purchases: sum(purchases, (r) => r.valuePaise),
    sales: sum(sales, (r) => r.valuePaise),
    acquisition: sum(sales, (r) => r.acquisitionPaise ?? 0n),
    tds: sum(sales, (r) => r.tdsPaise),
    tdsByDiginoor: sum(
      sales.filter((r) => r.tdsTreatment === "deposited_by_diginoor"),
      (r) => r.tdsPaise,
    ),
  };
}

export function statementCsv(f: StatementFacts): string {
  const header = [
    "Date (IST)",
    "Type",
    "NFT",
    "Token ID",
    "Paid with",
    "Crypto amount",
    "Rate day",
    "Value (INR)",
    "Acquisition cost (INR)",
    "Gain (INR)",
    "TDS rate",
    "TDS (INR)",
    "TDS treatment",
  ];
  const money = (paise: bigint) => csvDecimal(rupees(paise));
  const rows = f.records.map((r) => {
    const sale = r.side === "sale";
    return [
      istDate(r.occurredAt),
      sale ? "Sale" : "Purchase",
      r.title,
      r.tokenId ?? "",
      r.paidWith === "card" ? "Card/UPI" : r.paidWith === "auction" ? "Auction (crypto)" : "Crypto",
      r.amountWei && r.symbol ? formatNative(r.amountWei, r.symbol, 18) : "",
      r.rateDay ?? "",
      money(r.valuePaise),
      sale && r.acquisitionPaise !== null ? money(r.acquisitionPaise) : "",
      sale && r.acquisitionPaise !== null ? money(r.valuePaise - r.acquisitionPaise) : "",
      sale ? pct(r.tdsRateBps) : "",
      sale ? money(r.tdsPaise) : "",
      sale ? treatmentText[r.tdsTreatment] : "",
    ];
  });
  return toCsv(rows, { header });
}

const FONT_DIR = "/usr/share/fonts/truetype/dejavu";

function yearSpan(fy: string): string {
  const y = Number(fy.slice(0, 4));
  return `1 April ${y} – 31 March ${y + 1}`;
}

/** pdfkit is loaded when a statement is first asked for (not at every start). */
export async function statementPdf(f: StatementFacts): Promise<Buffer> {
  const { default: PDFDocument } = await import("pdfkit");
  const doc = new PDFDocument({
    size: "A4",
    layout: "landscape",
    margin: 36,
    info: { Title: `Diginoor tax statement ${f.financialYear}` },
  });
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on("end", () => resolve(Buffer.concat(chunks))));
  // DejaVu has the rupee sign; without it (no fonts-dejavu-core) amounts fall back to "Rs.".
  const dejavu = existsSync(`${FONT_DIR}/DejaVuSans.ttf`);
  if (dejavu) {
    doc.registerFont("body", `${FONT_DIR}/DejaVuSans.ttf`);
    doc.registerFont("bold", `${FONT_DIR}/DejaVuSans-Bold.ttf`);
  }
  const body = dejavu ? "body" : "Helvetica";
  const bold = dejavu ? "bold" : "Helvetica-Bold";
  const inr = (paise: bigint) => (dejavu ? formatInr(paise) : formatInr(paise).replace("₹", "Rs. "));
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;

  doc.font(bold).fontSize(18).text(`Tax statement, financial year ${f.financialYear}`, left, 36);
  doc
    .font(body)
    .fontSize(10)
    .fillColor("#444")
    .text(`${yearSpan(f.financialYear)} · Diginoor · generated ${istDate(f.generatedAt)} (IST)`);
  doc
    .moveDown(0.6)
    .fillColor("#000")
    .fontSize(11)
    .text(
      `${f.user.name} <${f.user.email}> · Tax residence: India · ${f.specifiedPerson ? "Specified person" : "Not a specified person"} (s.194S)`,
    );
  const rule = f.rule
    ? `TDS under s.194S for ${f.financialYear}: ${pct(f.rule.rateBps)} of a sale once your sales in the year exceed ${inr(f.specifiedPerson ? f.rule.specifiedPaise : f.rule.otherPaise)}.`
    : `No TDS rule applies to ${f.financialYear}.`;
  doc.fontSize(10).text(rule);
  doc.text("Values are in rupees at the day's stored exchange rate (the rate day of each line).");

  const t = totalsOf(f.records);
  doc.moveDown(0.6);
  const boxY = doc.y;
  const cells: [string, string][] = [
    ["Purchases", inr(t.purchases)],
    ["Sales", inr(t.sales)],
    ["Acquisition cost (known)", inr(t.acquisition)],
    ["TDS", inr(t.tds)],
    ["TDS deposited by Diginoor", inr(t.tdsByDiginoor)],
  ];
  const cw = width / cells.length;
  doc.rect(left, boxY, width, 44).fill("#f3efe6");
  cells.forEach(([label, value], i) => {
    doc
      .fillColor("#555")
      .font(body)
      .fontSize(9)
      .text(label, left + 8 + i * cw, boxY + 7, { width: cw - 16 });
    doc
      .fillColor("#000")
      .font(bold)
      .fontSize(13)
      .text(value, left + 8 + i * cw, boxY + 21, { width: cw - 16 });
  });
  doc.y = boxY + 56;

  const table = (title: string, cols: { head: string; w: number; right?: boolean }[], rows: string[][]) => {
    doc.x = left;
    doc.font(bold).fontSize(12).fillColor("#000").text(title, left);
    doc.moveDown(0.3);
    const scale = width / cols.reduce((a, c) => a + c.w, 0);
    const drawRow = (cellsOfRow: string[], font: string, shade?: string) => {
      const y = doc.y;
      const heights = cellsOfRow.map((c, i) =>
        doc
          .font(font)
          .fontSize(8.5)
          .heightOfString(c, { width: cols[i]!.w * scale - 6 }),
      );
      const h = Math.max(...heights) + 6;
      if (y + h > doc.page.height - doc.page.margins.bottom) {
        doc.addPage();
        return drawRow(cellsOfRow, font, shade);
      }
      if (shade) doc.rect(left, y, width, h).fill(shade);
      let x = left;
      cellsOfRow.forEach((c, i) => {
        const w = cols[i]!.w * scale;
        doc
          .fillColor("#000")
          .font(font)
          .fontSize(8.5)
          .text(c, x + 3, y + 3, { width: w - 6, align: cols[i]!.right ? "right" : "left" });
        x += w;
      });
      doc.y = y + h;
    };
    drawRow(
      cols.map((c) => c.head),
      bold,
      "#e4ddd0",
    );
    if (!rows.length) drawRow([`None in ${f.financialYear}`, ...cols.slice(1).map(() => "")], body);
    rows.forEach((r, i) => {
      drawRow(r, body, i % 2 ? "#faf8f4" : undefined);
    });
    doc.moveDown(0.8);
  };

  const paid = (r: TaxRecordRow) =>
    r.paidWith === "card"
      ? "Card/UPI"
      : `${r.paidWith === "auction" ? "Auction · " : ""}${r.amountWei && r.symbol ? formatNative(r.amountWei, r.symbol, 6) : "crypto"}`;
  table(
    "Purchases",
    [
      { head: "Date (IST)", w: 70 },
      { head: "NFT", w: 200 },
      { head: "Token", w: 60 },
      { head: "Paid with", w: 130 },
      { head: "Rate day", w: 70 },
      { head: "Value", w: 90, right: true },
    ],
    f.records
      .filter((r) => r.side === "purchase")
      .map((r) => [
        istDate(r.occurredAt),
        r.title,
        r.tokenId ?? "",
        paid(r),
        r.rateDay ?? "",
        inr(r.valuePaise),
      ]),
  );
  table(
    "Sales",
    [
      { head: "Date (IST)", w: 64 },
      { head: "NFT", w: 150 },
      { head: "Token", w: 48 },
      { head: "Paid with", w: 100 },
      { head: "Value", w: 76, right: true },
      { head: "Acquisition cost", w: 76, right: true },
      { head: "Gain", w: 70, right: true },
      { head: "TDS", w: 80, right: true },
      { head: "TDS treatment", w: 150 },
    ],
    f.records
      .filter((r) => r.side === "sale")
      .map((r) => [
        istDate(r.occurredAt),
        r.title,
        r.tokenId ?? "",
        paid(r),
        inr(r.valuePaise),
        r.acquisitionPaise === null ? "unknown" : inr(r.acquisitionPaise),
        r.acquisitionPaise === null ? "—" : inr(r.valuePaise - r.acquisitionPaise),
        r.tdsPaise > 0n ? `${inr(r.tdsPaise)} (${pct(r.tdsRateBps)})` : inr(0n),
        treatmentText[r.tdsTreatment],
      ]),
  );
  doc
    .font(body)
    .fontSize(8)
    .fillColor("#555")
    .text(
      "Gains on virtual digital assets are taxed at 30% (s.115BBH) with no deduction but the acquisition cost. " +
        "An acquisition cost is 'unknown' when the token came to you other than by a purchase we recorded. " +
        "This statement is a record of your transactions on Diginoor, not tax advice.",
      left,
      doc.y,
      { width },
    );
  doc.end();
  return done;
}
