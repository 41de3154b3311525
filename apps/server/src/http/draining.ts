/**
 * A server process told to stop (SIGTERM) first drains for SHUTDOWN_DRAIN_MS: it still serves
 * everything, but its readiness (/readyz) answers 503, so the load balancer's health check takes it
 * out of rotation before it closes its connections (decision 162, rolling restarts). One flag per
 * process: only main.ts sets it.
 */
let draining = false;

export function startDraining(): void {
  draining = true;
}

export function isDraining(): boolean {
  return draining;
}
