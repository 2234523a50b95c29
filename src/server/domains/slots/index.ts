import type { DomainModule } from '../../platform/domain.ts';
import { slotsImporters } from './importers.ts';
import { slotsRoutes } from './routes.ts';
import type { SlotsTables } from './tables.ts';

/** Slots: the slot search (spec endpoint 5), its gazetteer rows and customer portal users. */
export const slots: DomainModule<SlotsTables> = {
  name: 'slots',
  routes: slotsRoutes,
  importers: slotsImporters,
  migrations: new URL('./migrations/', import.meta.url),
};
