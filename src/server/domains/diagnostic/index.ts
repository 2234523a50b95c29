import type { DomainModule } from '../../platform/domain.ts';
import { diagnosticImporters } from './importers.ts';
import { diagnosticRoutes } from './routes.ts';
import type { DiagnosticTables } from './tables.ts';

/** Diagnostic: flags and notes of a work order. */
export const diagnostic: DomainModule<DiagnosticTables> = {
  name: 'diagnostic',
  routes: diagnosticRoutes,
  importers: diagnosticImporters,
  migrations: new URL('./migrations/', import.meta.url),
};
