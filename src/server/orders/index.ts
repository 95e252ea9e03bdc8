/** What other features may use of orders: they import it from here, never from its files (ARCHITECTURE.md). */
export { insertActivity, type ActivityRow } from './activity-queries';
export { pdfChecker } from './bol';
export { listBolVersions } from './bol-queries';
export { createOrder } from './create';
export { isoUtc, orderVisibleTo } from './details';
export { insertNewOrder } from './insert-new';
export { ORDER_NOT_FOUND } from './find';
export { ORDER_ACTIONS, logRowOutcome, type LogOutcome } from './log';
export {
  findOrderForUser,
  insertTransactionRow,
  listOrderItems,
  picksheetTaken,
  replaceOrderItems,
  updateOrderColumns,
  visibleOrdersQuery,
  type OrderItemRow,
  type OrderRow,
} from './queries';
export { findOrderDocument, type OrderDocument } from './read-queries';
export { createItemRows, ORDER_TEXT_FIELDS } from './rows';
export { derivedId, importSeedOrders } from './seed';
export { updateOrder } from './update';
export { lockOrderRow as sqliteLockOrderRow } from './order-lock';
export { lockOrderRow as postgresLockOrderRow } from './order-lock.postgres';
