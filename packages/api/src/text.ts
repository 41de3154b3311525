// What a human text field, an image URL and a date may hold (issue 23 point 6): one rule for every
// input schema of the API, so a title cannot carry a line break into a feed, a header or a log line.
import { z } from "zod";

/**
 * Characters no single-line text may hold: control characters (C0 including TAB, CR and LF, DEL, C1),
 * the line and paragraph separators, and the bidirectional embeddings, overrides and isolates (they
 * reorder the text around them: a title could pose as another).
 */
const NOT_IN_A_LINE = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;
/** The same, except the TAB, LF and CR of ordinary paragraphs (descriptions, messages, Markdown). */
const NOT_IN_PARAGRAPHS = /(?![\t\n\r])[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;

export const textMessages = {
  line: "must be one line without control characters",
  paragraphs: "must not contain control characters",
  imageUrl: "must be a /media/ path or an https URL",
  year: (min: number, max: number) => `must be a date between the years ${min} and ${max}`,
} as const;

/** Trimmed one-line text (a title, a name, an author) of at most `max` characters; may be empty. */
export const lineText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `at most ${max} characters`)
    .refine((s) => !NOT_IN_A_LINE.test(s), textMessages.line);
/** One-line text that must not be empty. */
export const requiredLine = (max: number) => lineText(max).min(1, "is required");

/** Whether text of several lines holds no control character but TAB, LF and CR. */
export const paragraphsOk = (s: string) => !NOT_IN_PARAGRAPHS.test(s);

/** Trimmed text of several lines (a description, a message): line breaks and tabs allowed. */
export const paragraphText = (max: number) =>
  z.string().trim().max(max, `at most ${max} characters`).refine(paragraphsOk, textMessages.paragraphs);

/** A site-relative media path (/media/…, /images/…) or an https URL. */
export const imageUrlSchema = z
  .string()
  .trim()
  .max(2000)
  .regex(/^(\/[A-Za-z0-9._~/-]+|https:\/\/[^\s"'<>]+)$/, textMessages.imageUrl);

/**
 * The years a date of the API may fall in. The catalogue's oldest films are from the 1910s and no
 * post, sale or lottery is scheduled centuries ahead: outside these years a date is a typing mistake
 * (year 1, year 9999) that would sort every list wrongly, so it is refused.
 */
export const MIN_YEAR = 1900;
export const MAX_YEAR = 2200;

/** An ISO 8601 date-time with its offset, in the years MIN_YEAR–MAX_YEAR (see above). */
export const isoDateTime = (message = "must be an ISO 8601 date-time") =>
  z.iso.datetime({ offset: true, message }).refine(
    (s) => {
      const year = Number(s.slice(0, 4)); // as written: 2200-12-31T23:00-05:00 is still 2200
      return year >= MIN_YEAR && year <= MAX_YEAR;
    },
    textMessages.year(MIN_YEAR, MAX_YEAR),
  );
