import { Button } from "./Button.tsx";

/** What went wrong, in the user's words, and a way to retry. */
export function ErrorState({
  title = "We couldn't load this",
  error,
  onRetry,
  retrying = false,
}: {
  title?: string;
  error?: unknown;
  onRetry?: () => void;
  retrying?: boolean;
}) {
  const message =
    error instanceof Error && error.message
      ? error.message
      : "Something went wrong. Please check your connection.";
  return (
    <div className="state state-error" role="alert">
      <h3>{title}</h3>
      <p>{message}</p>
      {onRetry ? (
        <Button variant="secondary" onClick={onRetry} loading={retrying}>
          Retry
        </Button>
      ) : null}
    </div>
  );
}
