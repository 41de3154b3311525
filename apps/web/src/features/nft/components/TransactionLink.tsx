/** Block explorer of the chains we run on; the local development chain has none. */
export function explorerTxUrl(chainId: number | null, hash: string): string | null {
  if (chainId === 137) return `https://polygonscan.com/tx/${hash}`;
  if (chainId === 80002) return `https://amoy.polygonscan.com/tx/${hash}`;
  return null;
}

/** A Tweet intent for `text` with a link to `path` on this site. */
export function tweetUrl(text: string, path: string): string {
  const url = `${window.location.origin}${path}`;
  return `https://twitter.com/intent/tweet?text=${encodeURIComponent(text)}&url=${encodeURIComponent(url)}`;
}

/** The view-transaction link (or, on a chain without an explorer, the hash to look up). */
export function TransactionLink({ chainId, hash }: { chainId: number | null; hash: string }) {
  const url = explorerTxUrl(chainId, hash);
  return (
    <p className="tx-link">
      Transaction:{" "}
      {url ? (
        <a href={url} target="_blank" rel="noopener noreferrer">
          View transaction
        </a>
      ) : (
        <code title="The local development chain has no block explorer">{hash}</code>
      )}
    </p>
  );
}
