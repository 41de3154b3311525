import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const apiTarget = process.env.DIGINOOR_API_URL ?? "http://localhost:3000";

// One Vite (7) in the whole tree: the root pins it so vitest and @vitejs/plugin-react share it.
export default defineConfig(() => ({
  plugins: [react()],
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
      "/sandbox": { target: apiTarget, changeOrigin: false },
    },
  },
}));
