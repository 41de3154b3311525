/** A small busy indicator; `label` is read by screen readers (empty when the context already says it). */
export function Spinner({ label = "Loading" }: { label?: string }) {
  return (
    <span className="spinner" role={label ? "status" : undefined} aria-hidden={label ? undefined : true}>
      {label ? <span className="visually-hidden">{label}</span> : null}
    </span>
  );
}
