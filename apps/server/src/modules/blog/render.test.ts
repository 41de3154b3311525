import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { htmlToText, readingMinutes, renderMarkdown, sanitizePostHtml } from "./render.ts";

const ALLOWED_TAGS = new Set(
  "p h2 h3 h4 h5 h6 blockquote ul ol li a strong em b i s del code pre kbd sup sub hr br img figure figcaption table thead tbody tr th td".split(
    " ",
  ),
);
const ALLOWED_ATTRS = new Set(
  "href title rel src alt width height loading decoding start align colspan rowspan scope class".split(" "),
);

/**
 * Every tag of sanitized output with its attributes. sanitize-html writes attributes as name="value"
 * with `"` escaped, so this reading of its output is exact.
 */
function tags(html: string): { name: string; attrs: Record<string, string>; raw: string }[] {
  const out: { name: string; attrs: Record<string, string>; raw: string }[] = [];
  for (const m of html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9:-]*)([^>]*)>/g)) {
    const attrs: Record<string, string> = {};
    const rest = (m[2] ?? "").replace(/\/$/, "");
    const leftover = rest.replace(/\s([a-zA-Z_:][-a-zA-Z0-9_:.]*)="([^"]*)"/g, (_, k: string, v: string) => {
      attrs[k.toLowerCase()] = v;
      return "";
    });
    expect(leftover.trim(), `unparsed attribute text in ${m[0]}`).toBe("");
    out.push({ name: (m[1] ?? "").toLowerCase(), attrs, raw: m[0] });
  }
  return out;
}

/** The output is inert: only allowlisted tags and attributes, and URLs that cannot run code. */
function expectInert(html: string) {
  for (const t of tags(html)) {
    expect(ALLOWED_TAGS.has(t.name), `tag <${t.name}> in ${html}`).toBe(true);
    for (const [k, v] of Object.entries(t.attrs)) {
      expect(ALLOWED_ATTRS.has(k), `attribute ${k} in ${t.raw}`).toBe(true);
      if (k === "href" || k === "src") {
        const decoded = v
          .replace(/&amp;/g, "&")
          // Browsers ignore whitespace and control characters inside a URL's scheme.
          // biome-ignore lint/suspicious/noControlCharactersInRegex: that is what is stripped
          .replace(/[\s\u0000-\u001f]/g, "")
          .toLowerCase();
        expect(decoded, `${k} in ${t.raw}`).toMatch(
          /^(https?:|mailto:|\/[^/]|#|[a-z0-9._~-]+(\/|$|\?|#)|\.\.?\/|$)/,
        );
        if (k === "src") expect(decoded).not.toMatch(/^mailto:/);
      }
    }
  }
}

const hostile = [
  "<script>alert(1)</script>",
  "<SCRIPT SRC=https://evil.example/x.js></SCRIPT>",
  '<img src="x" onerror="alert(1)">',
  "<img src=x onerror=alert(1)//>",
  '<a href="javascript:alert(1)">click</a>',
  '<a href="JaVaScRiPt:alert(1)">click</a>',
  '<a href="&#106;avascript:alert(1)">click</a>',
  '<a href="java\tscript:alert(1)">click</a>',
  "[click me](javascript:alert(1))",
  "[click me](vbscript:msgbox(1))",
  "[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
  "![img](javascript:alert(1))",
  '<svg onload="alert(1)"><script>alert(1)</script><circle r="4"/></svg>',
  '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>',
  '<iframe src="https://evil.example" onload="alert(1)"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<div style="background:url(javascript:alert(1))" onclick="alert(1)">x</div>',
  '<p onmouseover="alert(1)">hover</p>',
  '<form action="javascript:alert(1)"><input type="submit" onfocus="alert(1)" autofocus></form>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<link rel="stylesheet" href="javascript:alert(1)">',
  "<style>body{background:url(javascript:alert(1))}</style>",
  "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>",
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
  '<base href="javascript:alert(1)//">',
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+" alt="x">',
  '<a href="//evil.example/path">protocol-relative</a>',
  "<details open ontoggle=alert(1)>",
  '<template><img src=x onerror="alert(1)"></template>',
  "<!--<img src=x onerror=alert(1)>-->",
];

describe("renderMarkdown: hostile Markdown renders inert", () => {
  for (const input of hostile) {
    it(`neutralises ${input.slice(0, 60)}`, () => {
      const html = renderMarkdown(`Before\n\n${input}\n\nAfter`);
      expectInert(html);
      expect(html).not.toMatch(/<script|<svg|<iframe|<object|<embed|<style|<form|<input|<meta|<base|<link/i);
      expect(html).not.toMatch(/\son[a-z]+=/i);
      // A refused link stays visible as text; no attribute carries the scheme.
      expect(html).not.toMatch(/="\s*(javascript|vbscript|data):/i);
      expect(html).toContain("Before");
      expect(html).toContain("After");
    });
  }

  it("keeps no script content and no handler whatever the mix (property)", () => {
    const piece = fc.oneof(
      fc.constantFrom(...hostile),
      fc.constantFrom("# Title", "**bold**", "- item", "> quote", "`code`", "[ok](https://example.com)"),
      fc.string({ maxLength: 20 }).map((s) => s.replace(/alert/gi, "")),
    );
    fc.assert(
      fc.property(
        fc.array(piece, { minLength: 1, maxLength: 8 }),
        fc.constantFrom("\n\n", "\n", " ", ""),
        (parts, sep) => {
          const html = renderMarkdown(parts.join(sep));
          expectInert(html);
          // A handler inside a tag; escaped text such as `<img onerror=…>` in code is inert.
          expect(html).not.toMatch(/<[^>]*\son[a-z]+\s*=/i);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("sanitizes HTML from elsewhere (WordPress) by the same rules", () => {
    const html = sanitizePostHtml(hostile.join("\n"));
    expectInert(html);
    expect(html).not.toMatch(/="\s*javascript:|<script|<iframe|<svg|\son[a-z]+=/i);
  });
});

describe("renderMarkdown: what authors write survives", () => {
  it("keeps headings, emphasis, lists, tables, code, quotes and safe links and images", () => {
    const html = renderMarkdown(
      [
        "# Top heading",
        "## Section",
        "Some **bold**, *italic* and `code` with a [site link](/kabali) and [an external one](https://polygon.technology).",
        "- one\n- two",
        "1. first\n2. second",
        "> A quote",
        "| Tier | Size |\n| --- | --- |\n| Rare | tens |",
        "```ts\nconst x = 1;\n```",
        "![A poster](/media/catalogue/films/kabali-poster.webp)",
        '<figure><img src="https://cdn.example/a.jpg" alt="a"><figcaption>Caption</figcaption></figure>',
        "Write to [support](mailto:support@diginoor.example).",
      ].join("\n\n"),
    );
    expectInert(html);
    // The page's h1 is the title: a body h1 becomes h2.
    expect(html).toContain("<h2>Top heading</h2>");
    expect(html).not.toContain("<h1");
    expect(html).toContain("<strong>bold</strong>");
    expect(html).toContain('<a href="/kabali">site link</a>');
    expect(html).toContain(
      '<a href="https://polygon.technology" rel="noopener noreferrer">an external one</a>',
    );
    expect(html).toContain('<a href="mailto:support@diginoor.example">support</a>');
    expect(html).toMatch(/<table>[\s\S]*<th>Tier<\/th>[\s\S]*<td>Rare<\/td>/);
    expect(html).toContain('<code class="language-ts">');
    expect(html).toContain("<blockquote>");
    expect(html).toContain(
      '<img src="/media/catalogue/films/kabali-poster.webp" alt="A poster" loading="lazy" decoding="async" />',
    );
    expect(html).toContain("<figcaption>Caption</figcaption>");
  });
});

describe("htmlToText and readingMinutes", () => {
  it("drops tags and decodes entities", () => {
    expect(htmlToText("<p>Rock &amp; roll&#8217;s <b>best</b></p><script>alert(1)</script>")).toBe(
      "Rock & roll\u2019s best",
    );
  });
  it("counts 200 words a minute, at least one", () => {
    expect(readingMinutes("<p>short</p>")).toBe(1);
    expect(readingMinutes(`<p>${"word ".repeat(1000)}</p>`)).toBe(5);
  });
});
