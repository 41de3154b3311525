// A stand-in for the old WordPress site, for the browser tests: answers wp-json/wp/v2/posts?_embed
// with one post full of hostile markup, which the server must sanitize before any page shows it.
// Usage: PORT=4174 node e2e/support/wordpress-fixture.mjs
import http from "node:http";

export const HOSTILE_SLUG = "sanitizer-check-hostile-markup";

const content = [
  "<p>Safe paragraph: this text must be shown.</p>",
  "<script>alert('script tag')</script>",
  '<img src="/media/blog/what-is-an-nft.jpg" alt="cover" onerror="alert(\'onerror\')" onload="alert(\'onload\')">',
  "<p onmouseover=\"alert('mouseover')\" onclick=\"alert('click')\">Hover or click me.</p>",
  '<a href="javascript:alert(\'javascript link\')" id="js-link">A javascript: link</a>',
  "<a href=\"&#106;avascript:alert('encoded link')\">An encoded javascript: link</a>",
  "<svg onload=\"alert('svg onload')\"><script>alert('svg script')</script><circle r=\"10\"/></svg>",
  "<iframe src=\"javascript:alert('iframe')\"></iframe>",
  "<iframe srcdoc=\"&lt;script&gt;alert('srcdoc')&lt;/script&gt;\"></iframe>",
  "<object data=\"javascript:alert('object')\"></object>",
  "<math><mtext><table><mglyph><style><img src=x onerror=\"alert('mxss')\"></style></mglyph></table></mtext></math>",
  "<details open ontoggle=\"alert('details')\"><summary>Details</summary></details>",
  "<form action=\"javascript:alert('form')\"><button>Submit</button></form>",
  "<p>Last safe paragraph.</p>",
].join("\n");

const posts = [
  {
    id: 1,
    slug: HOSTILE_SLUG,
    date: "2020-01-01T09:00:00",
    date_gmt: "2020-01-01T03:30:00",
    status: "publish",
    title: {
      rendered: "Sanitizer check: a post full of hostile markup &lt;script&gt;alert(1)&lt;/script&gt;",
    },
    excerpt: { rendered: "<p>Every trick in the book, <script>alert('excerpt')</script>rendered inert.</p>" },
    content: { rendered: content },
    _embedded: { author: [{ name: "Security Review" }] },
  },
];

const port = Number(process.env.PORT ?? 4174);
http
  .createServer((req, res) => {
    if (req.url === "/health") return res.writeHead(200).end("ok");
    if (req.url?.startsWith("/wp-json/wp/v2/posts")) {
      return res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(posts));
    }
    res.writeHead(404).end();
  })
  .listen(port, "127.0.0.1");
