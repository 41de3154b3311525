import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";

/**
 * While the app closes, closes every connection as soon as it carries no request.
 *
 * Fastify (through Node's `closeIdleConnections`) closes the idle keep-alive connections once, when
 * `close()` starts. Two kinds escape it and would hold `close()` open for HTTP_IDLE_TIMEOUT_MS:
 * a connection that has not sent a request yet (Node does not count it as idle: a client's pool
 * opens spare ones, e.g. when the event streams are ended for the shutdown), and one whose response
 * ends after that moment. In-flight requests are left to complete; a connection accepted during
 * the shutdown gets `graceMs` to send its request.
 */
export function closeConnectionsWhenIdle(app: FastifyInstance, graceMs = 500): void {
  const server = app.server;
  /** Open connections and how many of their requests are in flight. */
  const inFlight = new Map<Socket, number>();
  let closing = false;
  const closeIfIdle = (socket: Socket) => {
    if (closing && inFlight.get(socket) === 0) socket.destroy();
  };
  server.on("connection", (socket: Socket) => {
    inFlight.set(socket, 0);
    socket.once("close", () => inFlight.delete(socket));
    if (closing) setTimeout(() => closeIfIdle(socket), graceMs).unref();
  });
  server.on("request", (req, res) => {
    const socket = req.socket;
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    res.once("close", () => {
      if (!inFlight.has(socket)) return;
      inFlight.set(socket, (inFlight.get(socket) ?? 1) - 1);
      // After the response has been handed to the socket: it is flushed before the socket closes.
      setImmediate(() => closeIfIdle(socket));
    });
  });
  // Registered before the routes' own preClose hooks (the event streams end theirs in one): every
  // response that ends from now on closes its connection.
  app.addHook("preClose", (done) => {
    closing = true;
    for (const socket of inFlight.keys()) closeIfIdle(socket);
    done();
  });
}
