// Markdown → sanitized HTML for blog posts (decision 130). markdown-it parses (raw HTML allowed, so
// authors can use a <figure> or a <kbd>), then sanitize-html keeps only an allowlist of tags,
// attributes and URL schemes. Everything that reaches a page, from our database or from WordPress,
// goes through sanitizePostHtml: the allowlist is the only line of defence that matters.
import { decodeHTML } from "entities";
import MarkdownIt from "markdown-it";
import sanitizeHtml from "sanitize-html";

/** Bump when the rules below change: stored posts rendered by an older version are rendered again. */
export const RENDER_VERSION = 1;

const markdown = new MarkdownIt({ html: true, linkify: true, typographer: true });

const EXTERNAL = /^https?:/i;

const options: sanitizeHtml.IOptions = {
  allowedTags: [
    "p",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "blockquote",
    "ul",
    "ol",
    "li",
    "a",
    "strong",
    "em",
    "b",
    "i",
    "s",
    "del",
    "code",
    "pre",
    "kbd",
    "sup",
    "sub",
    "hr",
    "br",
    "img",
    "figure",
    "figcaption",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
  ],
  allowedAttributes: {
    a: ["href", "title", "rel"],
    img: ["src", "alt", "title", "width", "height", "loading", "decoding"],
    ol: ["start"],
    th: ["align", "colspan", "rowspan", "scope"],
    td: ["align", "colspan", "rowspan"],
    code: ["class"],
  },
  allowedClasses: { code: ["language-*"] },
  // Relative URLs (our own /media/... and /blog/...) are kept; absolute ones need one of these.
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: { img: ["http", "https"] },
  allowProtocolRelative: false,
  // Script, style and the like go with their content; other unknown tags (svg, iframe, object,
  // form, ...) are dropped and only their text is kept.
  disallowedTagsMode: "discard",
  nonTextTags: [
    "script",
    "style",
    "textarea",
    "option",
    "noscript",
    "template",
    "title",
    "iframe",
    "svg",
    "math",
    "object",
  ],
  transformTags: {
    // The page's <h1> is the post title: headings in the body start at <h2>.
    h1: "h2",
    a: (tagName, attribs) => {
      const out: Record<string, string> = {};
      if (attribs.href !== undefined) out.href = attribs.href;
      if (attribs.title !== undefined) out.title = attribs.title;
      if (attribs.href && EXTERNAL.test(attribs.href)) out.rel = "noopener noreferrer";
      return { tagName, attribs: out };
    },
    img: (tagName, attribs) => ({
      tagName,
      attribs: { ...attribs, loading: "lazy", decoding: "async" },
    }),
  },
};

/** Sanitizes HTML from any source (our Markdown's output, a WordPress post) to the allowlist. */
export function sanitizePostHtml(html: string): string {
  return sanitizeHtml(html, options);
}

/** Renders a post's Markdown to sanitized HTML. */
export function renderMarkdown(source: string): string {
  return sanitizePostHtml(markdown.render(source));
}

/** Plain text of an HTML fragment (a WordPress title or excerpt): tags dropped, entities decoded. */
export function htmlToText(html: string): string {
  const text = sanitizeHtml(html, {
    allowedTags: [],
    allowedAttributes: {},
    nonTextTags: options.nonTextTags,
  });
  return decodeHTML(text).replace(/\s+/g, " ").trim();
}

/** Minutes to read a body of HTML at 200 words a minute (at least 1). */
export function readingMinutes(html: string): number {
  const words = htmlToText(html).split(" ").filter(Boolean).length;
  return Math.max(1, Math.round(words / 200));
}
