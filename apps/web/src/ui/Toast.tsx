import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";

export type ToastKind = "success" | "error" | "info" | "warning";

interface ToastItem {
  id: number;
  kind: ToastKind;
  text: string;
}

export interface ToastApi {
  success(text: string): void;
  error(text: string): void;
  info(text: string): void;
  warning(text: string): void;
  dismiss(id: number): void;
  /** Removes every toast showing `text` (e.g. 'Please Login to Continue' once the user has signed in). */
  dismissText(text: string): void;
}

const ToastContext = createContext<ToastApi | null>(null);

const LIFETIME_MS: Record<ToastKind, number> = { success: 5000, info: 5000, warning: 7000, error: 8000 };

/** Holds the toasts and renders them in two live regions (polite for news, assertive for errors). */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [items, setItems] = useState<ToastItem[]>([]);
  const nextId = useRef(1);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());

  const dismiss = useCallback((id: number) => {
    setItems((list) => list.filter((t) => t.id !== id));
    const timer = timers.current.get(id);
    if (timer) clearTimeout(timer);
    timers.current.delete(id);
  }, []);

  const dismissText = useCallback((text: string) => {
    setItems((list) => {
      for (const t of list) {
        if (t.text !== text) continue;
        clearTimeout(timers.current.get(t.id));
        timers.current.delete(t.id);
      }
      return list.filter((t) => t.text !== text);
    });
  }, []);

  const push = useCallback(
    (kind: ToastKind, text: string) => {
      const id = nextId.current++;
      setItems((list) => [...list.slice(-3), { id, kind, text }]);
      timers.current.set(
        id,
        setTimeout(() => dismiss(id), LIFETIME_MS[kind]),
      );
    },
    [dismiss],
  );

  useEffect(() => {
    const map = timers.current;
    return () => {
      for (const timer of map.values()) clearTimeout(timer);
    };
  }, []);

  const api = useMemo<ToastApi>(
    () => ({
      success: (text) => push("success", text),
      error: (text) => push("error", text),
      info: (text) => push("info", text),
      warning: (text) => push("warning", text),
      dismiss,
      dismissText,
    }),
    [push, dismiss, dismissText],
  );

  const render = (list: ToastItem[]) =>
    list.map((t) => (
      <div key={t.id} className={`toast toast-${t.kind}`} data-toast={t.kind}>
        <span className="toast-text">{t.text}</span>
        <button
          type="button"
          className="toast-close"
          aria-label="Dismiss notification"
          onClick={() => dismiss(t.id)}
        >
          ×
        </button>
      </div>
    ));

  return (
    <ToastContext.Provider value={api}>
      {children}
      <div className="toasts">
        <div role="status" aria-live="polite" className="toasts-region">
          {render(items.filter((t) => t.kind !== "error"))}
        </div>
        <div role="alert" aria-live="assertive" className="toasts-region">
          {render(items.filter((t) => t.kind === "error"))}
        </div>
      </div>
    </ToastContext.Provider>
  );
}

/** `toast.success(text)`, `toast.error(text)`, `toast.info(text)`, `toast.warning(text)`. */
export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error("useToast must be used inside <ToastProvider>");
  return api;
}
