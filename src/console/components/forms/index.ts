/**
 * What every console form shares: service errors read, put on their fields (through the
 * feature's code -> field mapping) or shown in an alert with a copyable errorReference,
 * the unsaved-changes guard, the scroll-to-alert helper, localized zod messages, and the
 * save-then-offer-Undo flow.
 */
export { ServiceErrorAlert } from './ServiceErrorAlert.tsx';
export { StickyFormActions } from './StickyFormActions.tsx';
export {
  applyServiceErrors,
  readServiceError,
  type ServiceError,
  type ServiceErrorItem,
  serviceErrorForForm,
} from './serviceErrors.ts';
export { UnsavedChangesDialog, useUnsavedGuard } from './unsavedGuard.tsx';
export { useSaveWithUndo } from './useSaveWithUndo.tsx';
export { useScrollIntoView } from './useScrollIntoView.ts';
export { zodErrorMap } from './zodErrorMap.ts';
