// The events module's part of the data rights (decision 170): the live-event replay buffer holds
// copies of notifications and profile changes for a few minutes. At erasure the person's own
// events go, and so do other people's buffered events that name them.
import type { Query } from "../../db/query.ts";
import { containsAny, needlesOf, type PersonalSubject } from "../../lib/personal-data.ts";

export async function eraseLiveEvents(q: Query, s: PersonalSubject) {
  await q("DELETE FROM live_events WHERE user_id = $1", [s.userId]);
  await q("DELETE FROM live_event_counters WHERE user_id = $1", [s.userId]);
  await q(`DELETE FROM live_events WHERE ${containsAny("event::text", 1)}`, [needlesOf(s)]);
}
