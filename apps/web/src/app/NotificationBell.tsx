import { useEffect, useId, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { useMarkRead, useNotifications } from "../lib/notifications.ts";
import { BellIcon } from "../ui/icons.tsx";

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, {
    day: "numeric",
    month: "short",
    hour: "2-digit",
    minute: "2-digit",
  });

/**
 * The bell in the header: the unread count, live; a panel (a sheet on phones) of the newest
 * notifications. Opening one marks it read (the count drops by one) and goes to its page.
 */
export function NotificationBell() {
  const notifications = useNotifications(true);
  const markRead = useMarkRead();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLElement>(null);
  const unread = notifications.data?.unread ?? 0;

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        setOpen(false);
        button.current?.focus();
      }
    };
    const onClick = (e: MouseEvent) => {
      const target = e.target as Node;
      if (!panel.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("mousedown", onClick);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("mousedown", onClick);
    };
  }, [open]);

  return (
    <div className="bell">
      <button
        ref={button}
        type="button"
        className="icon-btn"
        aria-label={unread ? `Notifications, ${unread} unread` : "Notifications"}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
      >
        <BellIcon />
        {unread ? (
          <span className="bell-count" data-testid="bell-count" aria-hidden="true">
            {unread > 99 ? "99+" : unread}
          </span>
        ) : null}
      </button>
      {open ? (
        <section ref={panel} id={panelId} className="bell-panel" aria-label="Notifications">
          <div className="bell-head">
            <h2>Notifications</h2>
            {unread ? (
              <button type="button" onClick={() => markRead.mutate("all")}>
                Mark all read
              </button>
            ) : null}
          </div>
          {notifications.data && notifications.data.items.length > 0 ? (
            <ul className="bell-list">
              {notifications.data.items.map((n) => (
                <li key={n.id}>
                  <button
                    type="button"
                    className={`bell-item${n.read ? "" : " bell-item-unread"}`}
                    onClick={() => {
                      if (!n.read) markRead.mutate(n.id);
                      setOpen(false);
                      navigate(n.link);
                    }}
                  >
                    <span className="bell-text">{n.text}</span>
                    <time dateTime={n.createdAt}>{when(n.createdAt)}</time>
                  </button>
                </li>
              ))}
            </ul>
          ) : (
            <p className="bell-empty">
              {notifications.isPending
                ? "Loading…"
                : "Nothing yet. Bids, sales and purchases that concern you will show here."}
            </p>
          )}
        </section>
      ) : null}
    </div>
  );
}
