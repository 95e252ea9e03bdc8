import type { RouteId } from '../routing/routes';
import { FacilitiesScreen } from './facilities/FacilitiesScreen';
import { InventoryScreen } from './inventory/InventoryScreen';

export function ScreenForRoute({ route }: { route: RouteId }) {
  switch (route) {
    case 'facilities':
      return <FacilitiesScreen />;
    case 'inventory':
      return <InventoryScreen />;
  }
}
