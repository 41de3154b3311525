import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

/**
 * The app's scripts are fetched at low priority. Public pages arrive rendered by the server
 * (decision 033), so their stylesheets and the largest image paint without any script: on a slow
 * connection they go first and the scripts that hydrate the page follow.
 */
function scriptsAtLowPriority(): Plugin {
  return {
    name: "diginoor:scripts-at-low-priority",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler: (html) =>
        html
          .replace(
            /<script type="module" crossorigin/g,
            '<script type="module" fetchpriority="low" crossorigin',
          )
          .replace(
            /<link rel="modulepreload" crossorigin/g,
            '<link rel="modulepreload" fetchpriority="low" crossorigin',
          ),
    },
  };
}

const apiTarget = process.env.DIGINOOR_API_URL ?? "http://localhost:3000";

// One Vite (7) in the whole tree: the root pins it so vitest and @vitejs/plugin-react share it.
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), scriptsAtLowPriority()],
  build: {
    target: "es2022",
    // The client build's manifest names each page's CSS and chunks for server-rendered pages; the
    // server build (`--ssr src/entry-server.tsx`, into dist-ssr) needs neither it nor public/.
    manifest: !isSsrBuild,
    copyPublicDir: !isSsrBuild,
    sourcemap: false,
    // Real sizes are reported by scripts/report-bundle.mjs instead of Vite's own table.
    reportCompressedSize: false,
    // Shared modules of a kilobyte or two (a button, a formatter) are merged into the chunks that
    // use them instead of each costing a request of its own on the first visit.
    rollupOptions: isSsrBuild ? undefined : { output: { experimentalMinChunkSize: 20_000 } },
  },
  server: {
    port: 5173,
    proxy: {
      "/api": { target: apiTarget, changeOrigin: false },
      "/media": { target: apiTarget, changeOrigin: false },
      "/dev": { target: apiTarget, changeOrigin: false },
      "/sandbox": { target: apiTarget, changeOrigin: false },
    },
  },
}));
