import { createRequire } from "node:module";
import path from "node:path";
import react from "@vitejs/plugin-react";
import { defineConfig, type PluginOption, version as viteVersion } from "vite";

const apiTarget = process.env.DIGINOOR_API_URL ?? "http://localhost:3000";

/**
 * @vitejs/plugin-react is hoisted to the repository root, where it sees the Vite that vitest
 * installed (a different major), and switches its dev transform to that Vite's built-ins. When the
 * majors differ, the dev server uses Vite's own esbuild JSX transform (automatic runtime, from
 * tsconfig) instead; builds keep the plugin, whose production path works with either.
 */
function reactPlugin(command: "build" | "serve"): PluginOption[] {
  const require = createRequire(import.meta.url);
  const pluginDir = path.dirname(require.resolve("@vitejs/plugin-react"));
  const pluginVite = (
    require(require.resolve("vite/package.json", { paths: [pluginDir] })) as { version: string }
  ).version;
  const sameMajor = pluginVite.split(".")[0] === viteVersion.split(".")[0];
  return command === "build" || sameMajor ? [react()] : [];
}

export default defineConfig(({ command }) => ({
  plugins: reactPlugin(command),
  build: {
    target: "es2022",
    manifest: true,
    sourcemap: false,
    // Real sizes are reported by scripts/report-bundle.mjs instead of Vite's own table.
    reportCompressedSize: false,
  },
  server: {
    port: 5173,
    proxy: {
      "/api": { target: apiTarget, changeOrigin: false },
      "/media": { target: apiTarget, changeOrigin: false },
      "/dev": { target: apiTarget, changeOrigin: false },
    },
  },
}));
