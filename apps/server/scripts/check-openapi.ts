// `npm run lint` (lint:openapi): docs/openapi.json as a strict client reads it (openapi-strict.ts).
// Fails, listing each problem, when a nullable enum lacks null, a used tag is not declared, an
// operation leaves out 408 or 431, or ajv in strict mode refuses one of its schemas.
import fs from "node:fs";
import { OPENAPI_FILE } from "./openapi-file.ts";
import { type OpenApiDoc, strictProblems } from "./openapi-strict.ts";

const file = process.argv[2] ?? OPENAPI_FILE;
const problems = strictProblems(JSON.parse(fs.readFileSync(file, "utf8")) as OpenApiDoc);
for (const p of problems) console.error(p);
if (problems.length) {
  console.error(`docs/openapi.json: ${problems.length} problem(s) for strict clients`);
  process.exit(1);
}
console.log("docs/openapi.json: strict clients accept it");
