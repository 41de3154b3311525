-- Contract deployments the server uses, one row per deployment; the newest per chain id wins.
CREATE TABLE chain_deployments (
  chain_id integer NOT NULL,
  collectible text NOT NULL,
  marketplace text NOT NULL,
  deployer text NOT NULL,
  minter text NOT NULL,
  treasury text NOT NULL,
  block_number bigint NOT NULL,
  deployed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (chain_id, collectible)
);
