import { Link, useParams } from '@tanstack/react-router';
import { useMemo } from 'react';
import { FINAL_STATUSES } from '../../../../shared/orders';
import { loadStateOf } from '../../api/queries';
import { OrderForm } from './OrderForm';
import { emptyOrderForm, formValuesOfOrder } from './orderFormValues';
import { useOrder } from './orderQueries';

export function NewOrderScreen() {
  const initial = useMemo(() => emptyOrderForm(), []);
  return (
    <section className="order-page" aria-labelledby="new-order-heading">
      <p className="breadcrumb">
        <Link to="/orders">Orders</Link>
      </p>
      <h1 id="new-order-heading" tabIndex={-1}>
        New order
      </h1>
      <OrderForm mode="create" initial={initial} />
    </section>
  );
}

export function EditOrderScreen() {
  const { orderId } = useParams({ from: '/orders/$orderId/edit' });
  const query = useOrder(orderId);
  const state = loadStateOf(query);
  // Built once per loaded answer: a background refresh must not reset what is being typed.
  const order = state.status === 'ready' ? state.data : null;
  const initial = useMemo(() => (order ? formValuesOfOrder(order) : null), [order]);

  return (
    <section className="order-page" aria-labelledby="edit-order-heading">
      <p className="breadcrumb">
        <Link to="/orders">Orders</Link>
        {order ? (
          <>
            {' › '}
            <Link to="/orders/$orderId" params={{ orderId }}>
              {order.identifiers.picksheet_code}
            </Link>
          </>
        ) : null}
      </p>
      <h1 id="edit-order-heading" tabIndex={-1}>
        {order ? `Edit order ${order.identifiers.picksheet_code}` : 'Edit order'}
      </h1>
      {state.status === 'loading' || state.status === 'idle' ? (
        <p className="state-message" role="status">
          Loading the order…
        </p>
      ) : state.status === 'error' ? (
        <div className="state-message error" role="alert">
          <p>Could not load the order: {state.message}</p>
          <Link to="/orders">Back to orders</Link>
        </div>
      ) : order && FINAL_STATUSES.includes(order.status) ? (
        <p className="state-message">
          A {order.status.toLowerCase()} order can no longer be changed.{' '}
          <Link to="/orders/$orderId" params={{ orderId }}>
            Back to the order
          </Link>
        </p>
      ) : order && initial ? (
        <OrderForm key={order.identifiers.id} mode="edit" initial={initial} order={order} />
      ) : null}
    </section>
  );
}
