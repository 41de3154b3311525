// Bundles the server into dist/main.js (see bundle.mjs).
import { bundleServer } from "./bundle.mjs";

await bundleServer("dist");
console.log("server built: apps/server/dist/main.js");
