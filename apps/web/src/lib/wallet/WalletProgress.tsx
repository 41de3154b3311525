/** What a wallet step is doing now, announced to screen readers, with the spec's "do not refresh" note. */
export function WalletProgress({ text, note = true }: { text: string | null; note?: boolean }) {
  if (!text) return null;
  return (
    <p className="wallet-progress" role="status">
      {text} {note ? <span className="wallet-progress-note">Please do not refresh the page</span> : null}
    </p>
  );
}
