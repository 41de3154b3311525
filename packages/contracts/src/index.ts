export * from "./anvil.js";
export * from "./anvil-accounts.js";
export * from "./deploy.js";
export * from "./voucher.js";
export * from "../generated/index.js";
