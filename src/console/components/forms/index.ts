/**
 * What every console form shares: the record form frame (RecordForm: save + Undo,
 * If-Match and the conflict dialog, service errors on their fields or in an alert with a
 * copyable errorReference, the unsaved-changes guard, the footer), localized zod messages.
 */
export { RecordForm, type RecordFormProps } from './RecordForm.tsx';
export { ServiceErrorAlert } from './ServiceErrorAlert.tsx';
export { StickyFormActions } from './StickyFormActions.tsx';
export {
  applyServiceErrors,
  readServiceError,
  type ServiceError,
  type ServiceErrorItem,
  serviceErrorForForm,
} from './serviceErrors.ts';
export { LeaveDialog, UnsavedChangesDialog, useUnsavedGuard } from './unsavedGuard.tsx';
export { type PutRecord, useSaveWithUndo, type WriteResult } from './useSaveWithUndo.tsx';
export { useScrollIntoView } from './useScrollIntoView.ts';
export { zodErrorMap } from './zodErrorMap.ts';
