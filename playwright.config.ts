import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { E2E_ADMIN_EMAIL } from "./e2e/support/accounts.ts";

/**
 * Browser tests run against the real built server (API + built web app) on a fresh data directory,
 * so every run starts from an empty database that the server migrates and seeds.
 * Build first: `npm run build && npm run test:e2e`.
 */
// E2E_PORT / E2E_OUTPUT_DIR / WEB_DIST_DIR let two people run the suite side by side on one machine.
const PORT = Number(process.env.E2E_PORT ?? 4173);
// A stand-in WordPress site (e2e/support/wordpress-fixture.mjs) whose hostile post the blog must show inert.
const WORDPRESS_PORT = PORT + 1;
// Workers re-evaluate this file; they inherit the directory chosen by the main process.
process.env.E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), "diginoor-e2e-"));

export default defineConfig({
  testDir: "e2e",
  outputDir: process.env.E2E_OUTPUT_DIR ?? "test-results",
  fullyParallel: false,
  workers: 2,
  retries: 0,
  reporter: "list",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://localhost:${PORT}`,
    browserName: "chromium",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
    trace: "retain-on-failure",
  },
  webServer: [
    {
      command: "node e2e/support/wordpress-fixture.mjs",
      url: `http://127.0.0.1:${WORDPRESS_PORT}/health`,
      reuseExistingServer: false,
      stdout: "ignore",
      stderr: "pipe",
      env: { PORT: String(WORDPRESS_PORT) },
    },
    {
      // The console tests' administrator is made the way the product makes one (`npm run admin:create`,
      // the accounts service) on the fresh data directory, before the server opens it.
      command: `npx tsx apps/server/src/modules/accounts/admin-cli.ts ${E2E_ADMIN_EMAIL} > /dev/null && node apps/server/dist/main.js`,
      url: `http://localhost:${PORT}/readyz`,
      reuseExistingServer: false,
      timeout: 180_000,
      stdout: "ignore",
      stderr: "pipe",
      env: {
        PORT: String(PORT),
        DATA_DIR: process.env.E2E_DATA_DIR,
        // The server starts its own anvil (state under DATA_DIR) and deploys our contracts: the wallet
        // tests connect a test wallet to it.
        LOG_LEVEL: "warn",
        // Fans' set-up requests carry their own client address (e2e/support/accounts.ts asAnotherClient).
        TRUST_PROXY: "loopback",
        NODE_ENV: "development",
        PUBLIC_URL: `http://localhost:${PORT}`,
        WORDPRESS_URL: `http://127.0.0.1:${WORDPRESS_PORT}`,
        ...(process.env.WEB_DIST_DIR ? { WEB_DIST_DIR: process.env.WEB_DIST_DIR } : {}),
      },
    },
  ],
});
