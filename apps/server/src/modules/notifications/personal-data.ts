// The notifications module's part of the data rights (decision 170): the person's notifications and
// mail choices (their consents, with when each was last set) are exported; at erasure they are
// deleted, and so are the notices in other people's feeds that name them ("X started following you").
import type { Query } from "../../db/query.ts";
import type { PersonalSubject } from "../../lib/personal-data.ts";

export async function exportNotifications(q: Query, s: PersonalSubject) {
  return {
    notifications: await q(
      `SELECT id::text AS id, kind, text, link, read_at AS "readAt", created_at AS "createdAt"
         FROM notifications WHERE user_id = $1 ORDER BY id`,
      [s.userId],
    ),
    mailConsents: await q(
      `SELECT kind, email AS "mailAllowed", updated_at AS "setAt" FROM notification_preferences
        WHERE user_id = $1 ORDER BY kind`,
      [s.userId],
    ),
  };
}

export async function eraseNotifications(q: Query, s: PersonalSubject) {
  await q("DELETE FROM notifications WHERE user_id = $1", [s.userId]);
  await q("DELETE FROM notification_preferences WHERE user_id = $1", [s.userId]);
  // The follow notices of the people they followed carry their name and handle.
  await q("DELETE FROM notifications WHERE source LIKE $1", [`follow:${s.userId}:%`]);
}
