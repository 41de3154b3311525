/**
 * `npm run admin:create` beside a server running on PGlite (issue 35 item 6, decision 193). PGlite serves
 * one process (the data directory's lock, DatabaseInUseError), so the command cannot open the database the
 * server holds: it asks the running server instead, over a Unix socket next to the data directory
 * (`<DATA_DIR>/pglite.admin.sock`, mode 0600). Only a process of the same operating-system user reaches it
 * (one that can already read and write the database files themselves), never the network.
 */
import fs from "node:fs";
import net from "node:net";
import type { AccountsService } from "./service.ts";

export type AdminCommand = { op: "promote" | "suspend" | "unsuspend"; email: string };

/** The socket of the server holding the PGlite data directory `pgliteDir`. */
export const adminSocketPath = (pgliteDir: string) => `${pgliteDir}.admin.sock`;

/** Runs one command; returns what the command line prints (the same in both ways of running it). */
export async function runAdminCommand(
  accounts: Pick<AccountsService, "promoteToAdmin" | "setSuspended">,
  cmd: AdminCommand,
): Promise<string[]> {
  const { email } = cmd;
  if (cmd.op !== "promote") {
    await accounts.setSuspended(email, cmd.op === "suspend");
    return [cmd.op === "suspend" ? `Suspended ${email}; its sessions are ended.` : `Reinstated ${email}.`];
  }
  const result = await accounts.promoteToAdmin(email);
  if (result.created) {
    return [
      `Created administrator ${email}.`,
      `Choose its password within one hour at:\n  ${result.setPasswordUrl}`,
    ];
  }
  if (result.setPasswordUrl) {
    return [
      `${email} is now an administrator (its unverified password was removed).`,
      `Choose its password within one hour at:\n  ${result.setPasswordUrl}`,
    ];
  }
  return [`${email} is now an administrator.`];
}

type Answer = { ok: true; lines: string[] } | { ok: false; error: string };

const isCommand = (v: unknown): v is AdminCommand =>
  !!v &&
  typeof v === "object" &&
  ["promote", "suspend", "unsuspend"].includes((v as AdminCommand).op) &&
  typeof (v as AdminCommand).email === "string";

/** The running server's end: one JSON line in (a command), one JSON line out (its lines, or the error). */
export async function startAdminChannel(
  socketPath: string,
  run: (cmd: AdminCommand) => Promise<string[]>,
): Promise<{ close: () => Promise<void> }> {
  // A socket left by a server that died is in the way; the data directory's lock says we own it now.
  fs.rmSync(socketPath, { force: true });
  const server = net.createServer((socket) => {
    let input = "";
    socket.setEncoding("utf8");
    socket.setTimeout(30_000, () => socket.destroy());
    socket.on("data", async (chunk) => {
      input += chunk;
      if (input.length > 4096) return void socket.destroy();
      const end = input.indexOf("\n");
      if (end < 0) return;
      let answer: Answer;
      try {
        const cmd: unknown = JSON.parse(input.slice(0, end));
        if (!isCommand(cmd)) throw new Error("Unknown command");
        answer = { ok: true, lines: await run(cmd) };
      } catch (err) {
        answer = { ok: false, error: err instanceof Error ? err.message : String(err) };
      }
      socket.end(`${JSON.stringify(answer)}\n`);
    });
    socket.on("error", () => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => resolve());
  });
  fs.chmodSync(socketPath, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        fs.rmSync(socketPath, { force: true });
      }),
  };
}

/** The command line's end: the running server's answer, or undefined when no server listens there. */
export function askAdminChannel(socketPath: string, cmd: AdminCommand): Promise<Answer | undefined> {
  return new Promise((resolve, reject) => {
    if (!fs.existsSync(socketPath)) return resolve(undefined);
    const socket = net.createConnection(socketPath);
    let output = "";
    socket.setEncoding("utf8");
    socket.setTimeout(60_000, () => socket.destroy(new Error("The running server did not answer in 60 s")));
    socket.on("connect", () => socket.write(`${JSON.stringify(cmd)}\n`));
    socket.on("data", (chunk) => {
      output += chunk;
    });
    socket.on("end", () => {
      try {
        resolve(JSON.parse(output.trim()) as Answer);
      } catch {
        reject(new Error("The running server's answer could not be read"));
      }
    });
    socket.on("error", (err: NodeJS.ErrnoException) => {
      // Nobody listens (a socket file left behind): as if there were none.
      if (err.code === "ECONNREFUSED" || err.code === "ENOENT") resolve(undefined);
      else reject(err);
    });
  });
}
