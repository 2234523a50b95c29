/**
 * Compatibility names for pages that still import the Referentials page furniture (the
 * catalog pages): the shared layout components under their former names. New code imports
 * `src/console/components/layout` directly.
 */
export {
  EmptyState as EmptyBlock,
  ErrorState as ErrorBlock,
  PageHeader as Header,
} from '../../../components/layout/index.ts';
