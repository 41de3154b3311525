// The rules every Server-Sent Events stream of the API follows (ids, replay, caps).

/**
 * A client that reconnects with `Last-Event-ID` (browsers' EventSource does it by itself) first gets
 * the events it missed, then live ones: at most this many of the user's newest events, from at most
 * REPLAY_HOURS ago (older ones are not replayed: the REST endpoints give the current state).
 */
export const REPLAY_EVENTS = 100;
export const REPLAY_HOURS = 24;

/** What the user streams say about ids, replay and the stream caps (OpenAPI descriptions). */
export const streamNotes = `Each event has an \`id\` (increasing per user); reconnecting with \`Last-Event-ID\` replays the events missed since (the user's last ${REPLAY_EVENTS}, from the last ${REPLAY_HOURS} hours) before live ones. One account may hold a few streams at once (SSE_MAX_STREAMS_PER_USER, 5 by default): beyond it 429 \`too_many_streams\`. The stream ends when its session does (sign-out, suspension, password change).`;
