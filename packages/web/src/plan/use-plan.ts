import { createContext, useContext, useSyncExternalStore } from 'react';
import type { PlanState, PlanStore } from './plan-store';

/** The open plan's store, for the components of the Gantt page. */
export const PlanStoreContext = createContext<PlanStore | null>(null);

export function usePlanStore(): PlanStore {
  const store = useContext(PlanStoreContext);
  if (!store) throw new Error('usePlanStore outside PlanStoreContext');
  return store;
}

/** A part of the plan's state: the component renders again only when that part changes (by identity). */
export function usePlan<Part>(select: (state: PlanState) => Part): Part {
  const store = usePlanStore();
  return useSyncExternalStore(store.subscribe, () => select(store.getState()));
}
