import type { RouteId } from '../routing/routes';
import { FacilitiesScreen } from './facilities/FacilitiesScreen';
import { InventoryPlaceholder } from './InventoryPlaceholder';

export function ScreenForRoute({ route }: { route: RouteId }) {
  switch (route) {
    case 'facilities':
      return <FacilitiesScreen />;
    case 'inventory':
      return <InventoryPlaceholder />;
  }
}
