import { stringify } from "csv-stringify/sync";

/**
 * The one CSV writer of every export the server makes (the studio earnings, the tax statement, the
 * newsletter list, a lottery's tickets.csv; issue 37 point 7), on `csv-stringify`: RFC 4180 quoting,
 * and every text cell that a spreadsheet would run as a formula neutralised (OWASP "CSV Injection":
 * a leading `=`, `+`, `-`, `@`, tab or carriage return, and their full-width forms, gets a leading
 * apostrophe, csv-stringify's `escape_formulas`).
 *
 * Numbers are never text: a `bigint` or a safe integer is written as its digits (a leading minus
 * included, which is no formula), and a decimal amount goes through `csvDecimal`, checked to be only
 * an optional minus, digits and decimals. Any other text (a name, a reference, a date) is text, and
 * is neutralised when it starts like a formula, whoever wrote it.
 */
export type CsvCell = string | bigint | number | CsvDecimal | null | undefined;

/** A decimal amount written as is (e.g. rupees "-1250.50"): only digits, one optional minus and point. */
export class CsvDecimal {
  readonly text: string;
  constructor(text: string) {
    if (!/^-?\d+(\.\d+)?$/.test(text))
      throw new Error(`csvDecimal: not a decimal amount: ${JSON.stringify(text)}`);
    this.text = text;
  }
}
export const csvDecimal = (text: string) => new CsvDecimal(text);

export interface CsvOptions {
  /** The header row (text cells, neutralised like any other). */
  header?: readonly string[];
  /** Line ending: CRLF (RFC 4180, the default) or LF. */
  eol?: "\r\n" | "\n";
}

/** Rows as CSV text, each line ended by `eol` (the last one too); an empty list is "" (or the header). */
export function toCsv(rows: Iterable<readonly CsvCell[]>, o: CsvOptions = {}): string {
  const records: CsvCell[][] = [];
  if (o.header) records.push([...o.header]);
  for (const r of rows) {
    records.push(
      r.map((c) => {
        if (typeof c === "number" && !Number.isSafeInteger(c))
          throw new Error(`toCsv: ${c} is not a safe integer (write amounts as bigint or csvDecimal)`);
        return c;
      }),
    );
  }
  if (records.length === 0) return "";
  return stringify(records, {
    record_delimiter: o.eol === "\n" ? "unix" : "windows",
    escape_formulas: true,
    cast: {
      bigint: (v) => v.toString(),
      number: (v) => String(v),
      // A checked decimal is a number: its leading minus is not escaped.
      object: (v) =>
        v instanceof CsvDecimal ? { value: v.text, escape_formulas: false } : JSON.stringify(v),
    },
  });
}
