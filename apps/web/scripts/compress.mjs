#!/usr/bin/env node
// Writes brotli (.br) and gzip (.gz) copies of the web build's text files next to them, so the
// server sends them precompressed (@fastify/static `preCompressed`) without compressing per request.
// Images and fonts are already compressed and are left alone; a copy that saves nothing is skipped.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../dist");
const TEXT = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;

let files = 0;
let raw = 0;
let brotli = 0;
for (const entry of fs.readdirSync(dist, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !TEXT.test(entry.name)) continue;
  const file = path.join(entry.parentPath, entry.name);
  if (file.includes(`${path.sep}.vite${path.sep}`)) continue;
  const bytes = fs.readFileSync(file);
  const br = brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
  const gz = gzipSync(bytes, { level: 9 });
  if (br.length < bytes.length) fs.writeFileSync(`${file}.br`, br);
  if (gz.length < bytes.length) fs.writeFileSync(`${file}.gz`, gz);
  files += 1;
  raw += bytes.length;
  brotli += Math.min(br.length, bytes.length);
}
console.log(
  `compressed ${files} files: ${(raw / 1024).toFixed(1)} KB raw, ${(brotli / 1024).toFixed(1)} KB brotli`,
);
