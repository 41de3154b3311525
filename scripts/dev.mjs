// `npm run dev`: the server with hot reload (tsx watch, port 3000) and the Vite dev server
// (port 5173, proxying /api, /media and /dev to the server). Ctrl-C stops both.
import { spawn } from "node:child_process";

const procs = [
  spawn("npm", ["run", "dev", "-w", "apps/server"], { stdio: "inherit", env: { ...process.env } }),
  spawn("npm", ["run", "dev", "-w", "apps/web"], { stdio: "inherit", env: { ...process.env } }),
];
const stop = () => {
  for (const p of procs) p.kill("SIGTERM");
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
for (const p of procs)
  p.on("exit", (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
