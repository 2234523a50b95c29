/** Page furniture shared by every feature page. */
export { CopyReference } from '../../app/errorSurface.tsx';
export { EmptyState } from './EmptyState.tsx';
export { ErrorState } from './ErrorState.tsx';
export { LoadingState } from './LoadingState.tsx';
export { PageHeader } from './PageHeader.tsx';
