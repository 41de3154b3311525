import "@fontsource/inter/latin-400.css";
import "@fontsource/inter/latin-600.css";
import "@fontsource/inter/latin-700.css";
import "@fontsource/playfair-display/latin-600.css";
import "@fontsource/playfair-display/latin-700.css";
import "./styles/global.css";
import "./styles/shell.css";

// The entry is only the stylesheets above: the app (React, the router, every module the pages share)
// is evaluated after the browser has painted the server's markup. Evaluating it takes a few hundred
// milliseconds of a phone's CPU, and a module script delivered before the first frame (a fast
// connection) runs before that frame, so the page's first and largest paint waited for it. The
// server preloads boot.tsx's chunk (seo/ssr.ts, headTags), so waiting costs no round trip.
requestAnimationFrame(() => setTimeout(() => void import("./boot.tsx"), 0));
