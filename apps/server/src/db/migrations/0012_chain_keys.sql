-- The contracts now have a two-step admin and separate minter and voucher-signer keys (issue 9,
-- docs/decisions/109-contract-keys-and-roles.md). Deployments recorded before keep their meaning: the
-- deployer was the admin and the minter also signed vouchers.
ALTER TABLE chain_deployments ADD COLUMN admin text;
ALTER TABLE chain_deployments ADD COLUMN signer text;
UPDATE chain_deployments SET admin = deployer, signer = minter;
ALTER TABLE chain_deployments ALTER COLUMN admin SET NOT NULL;
ALTER TABLE chain_deployments ALTER COLUMN signer SET NOT NULL;
-- Contracts deployed on the local anvil by an older build have another ABI: forget them, so the next
-- start deploys the current contracts (a chain given by CHAIN_DEPLOYMENT is recorded again at start).
DELETE FROM chain_deployments WHERE chain_id = 31337;
