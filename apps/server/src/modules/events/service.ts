import type { LiveEvent } from "@diginoor/api/events";
import type { PubSub } from "../../platform/pubsub/pubsub.ts";
import type { Tx } from "../../platform/tx.ts";

/** The pub/sub channel of one user's live events (every server process hears it). */
export function userChannel(userId: string): string {
  return `user.${userId.toLowerCase()}`;
}

/** Sends a live event to every open event stream of the user, in any process. */
export function publishToUser(pubsub: PubSub, userId: string, event: LiveEvent, opts?: { tx?: Tx }) {
  return pubsub.publish(userChannel(userId), event, opts);
}
