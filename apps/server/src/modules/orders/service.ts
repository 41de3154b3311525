// The orders module's public surface. Orders are made of units, each built by bootstrap.ts with the
// narrow dependencies it declares:
//   lifecycle.ts        the state machine: moves, reconciliation with the indexer, reservations, reads
//   wallet-checkout.ts  wallet orders: quotes, the voucher signed once at creation
//   hosted-checkout.ts  sandbox, Stripe and Cashfree: checkouts, webhooks, payment reconciliation
//   ticket-orders.ts    lottery ticket orders through those checkouts (numbered when paid)
//   refunds.ts          refunds of every cause, once per order and reason (decision 144)
//   fulfilment.ts       minting paid card orders with the minter key (chain module's nonce-ordered sends)
//   resale.ts           card and rupee purchases of resale listings: the buyer key buys and delivers
//   auctions.ts         primary auctions of auction NFTs
import type { PrimaryAuctions } from "./auctions.ts";
import type { EditionRegistry } from "./editions.ts";
import type { CardFulfilment } from "./fulfilment.ts";
import type { HostedCheckout } from "./hosted-checkout.ts";
import type { OrderLifecycle } from "./lifecycle.ts";
import type { ResaleCheckout } from "./resale.ts";
import type { WalletCheckout } from "./wallet-checkout.ts";

export { createPrimaryAuctions, type PrimaryAuctions } from "./auctions.ts";
export { createCardFulfilment, type CardFulfilment } from "./fulfilment.ts";
export { createEditionRegistry, type EditionRegistry } from "./editions.ts";
export { createHostedCheckout, type HostedCheckout } from "./hosted-checkout.ts";
export {
  createOrderLifecycle,
  EXPIRY_GRACE_MS,
  fulfilOrder,
  type OrderLifecycle,
  orderMail,
} from "./lifecycle.ts";
export { createWalletCheckout, type WalletCheckout } from "./wallet-checkout.ts";
export { createResaleCheckout, type ResaleCheckout } from "./resale.ts";
export { sandboxSecret } from "./sandbox.ts";

/** The orders module's units, as bootstrap.ts built them. */
export interface OrdersUnits {
  lifecycle: OrderLifecycle;
  walletCheckout: WalletCheckout;
  hostedCheckout: HostedCheckout;
  resale: ResaleCheckout;
  fulfilment: CardFulfilment;
  auctions: PrimaryAuctions;
  editions: EditionRegistry;
}

// Data rights (decision 170): this module's part of the archive and of the erasure.
export { exportOrders } from "./personal-data.ts";
/** The fulfilled card and rupee primary sales, for the studio earnings (decision 174). */
export { fiatPrimarySales, type FiatSaleRow } from "./repo.ts";
