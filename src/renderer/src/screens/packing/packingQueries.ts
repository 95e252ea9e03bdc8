import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../api/ApiContext';
import { fetchFulfilment, fetchLabelPrinter } from '../../api/fulfilment';
import { orderKeys } from '../../api/orderKeys';

/** Under the orders prefix, so a write anywhere about orders refreshes the packing screen too. */
export const fulfilmentKey = (orderId: string) =>
  [...orderKeys.all, 'fulfilment', orderId] as const;

export const labelPrinterKey = ['settings', 'label-printer'] as const;

export function useFulfilment(orderId: string) {
  const api = useApi();
  return useQuery({
    queryKey: fulfilmentKey(orderId),
    queryFn: ({ signal }) => fetchFulfilment(api, orderId, signal),
    staleTime: 0,
  });
}

/** The workstation's label printer (host null until set). */
export function useLabelPrinter() {
  const api = useApi();
  return useQuery({
    queryKey: labelPrinterKey,
    queryFn: ({ signal }) => fetchLabelPrinter(api, signal),
  });
}
