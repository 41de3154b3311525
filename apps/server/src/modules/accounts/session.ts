// The HTTP side of sessions: the cookie, and the signed-in user of a request (looked up once per
// request). The rules and queries are the service's.
import type { User } from "@diginoor/api/auth";
import { authMessages } from "@diginoor/api/auth";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../../config.ts";
import { AppError } from "../../http/errors.ts";
import { type AccountsService, SESSION_TTL_SECONDS, type SessionUser } from "./service.ts";
import type { UserRow } from "./tables.ts";

export const SESSION_COOKIE = "diginoor_session";

/** What reading a request's session needs (other modules' routes take this part of the service). */
export type SessionReader = Pick<AccountsService, "sessionUser">;

/** The user as the API shows it (never the password hash or provider ids). */
export function toApiUser(u: UserRow): User {
  return {
    id: u.id,
    name: u.name,
    handle: u.handle ?? "",
    email: u.email,
    phone: u.phone,
    emailVerified: u.emailVerifiedAt !== null,
    avatarUrl: u.avatarUrl,
    coverUrl: u.coverUrl,
    role: u.role,
    createdAt: u.createdAt.toISOString(),
  };
}

function cookieOptions(config: Config) {
  return {
    path: "/",
    httpOnly: true,
    sameSite: "lax" as const,
    secure: config.PUBLIC_URL.startsWith("https:"),
  };
}

/** Signs this browser in as `userId`: a new session (the previous one ends) and its cookie. */
export async function signIn(
  accounts: Pick<AccountsService, "startSession">,
  config: Config,
  req: FastifyRequest,
  reply: FastifyReply,
  userId: string,
): Promise<void> {
  const secret = await accounts.startSession(userId, {
    previousSecret: req.cookies[SESSION_COOKIE],
    userAgent: req.headers["user-agent"],
    ip: req.ip,
  });
  reply.setCookie(SESSION_COOKIE, secret, { ...cookieOptions(config), maxAge: SESSION_TTL_SECONDS });
  sessionCache.set(req, Promise.resolve(null));
}

export function clearSessionCookie(config: Config, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(config));
}

/** Ends the session of this request (if any) and clears the cookie. */
export async function signOut(
  accounts: Pick<AccountsService, "endSession">,
  config: Config,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const secret = req.cookies[SESSION_COOKIE];
  if (secret) await accounts.endSession(secret);
  clearSessionCookie(config, reply);
  sessionCache.set(req, Promise.resolve(null));
}

const sessionCache = new WeakMap<FastifyRequest, Promise<SessionUser | null>>();

/** The signed-in user of this request, or null (no, forged, expired or idle session; suspended user). */
export function optionalUser(accounts: SessionReader, req: FastifyRequest): Promise<SessionUser | null> {
  let cached = sessionCache.get(req);
  if (!cached) {
    const secret = req.cookies?.[SESSION_COOKIE];
    cached = secret ? accounts.sessionUser(secret) : Promise.resolve(null);
    sessionCache.set(req, cached);
  }
  return cached;
}

/** The signed-in user, or 401 'Please Login to Continue'. Use it to guard routes. */
export async function requireUser(accounts: SessionReader, req: FastifyRequest): Promise<SessionUser> {
  const user = await optionalUser(accounts, req);
  if (!user) throw AppError.unauthorized(authMessages.loginRequired);
  return user;
}
