import { Alert, Box, List, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { CopyReference } from '../../app/errorSurface.tsx';
import type { ServiceError, ServiceErrorItem } from './serviceErrors.ts';

/**
 * The service's refusal of a form, for the errors no field took: each translated message
 * with its code, and the errorReference with a copy button. `emptyHint` is shown when every
 * error went to a field (only the reference is left to show).
 */
export function ServiceErrorAlert({
  errors,
  errorReference,
  explain,
  title,
  closeLabel,
  emptyHint,
  onClose,
}: {
  errors: ServiceError['errors'];
  errorReference?: string;
  explain: (err: ServiceErrorItem) => string;
  title: string;
  closeLabel: string;
  emptyHint?: string;
  onClose?: () => void;
}) {
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertCircle size={18} />}
      title={title}
      withCloseButton={!!onClose}
      closeButtonLabel={closeLabel}
      onClose={onClose}
      role="alert"
      data-testid="service-error"
    >
      {errors.length === 0 && emptyHint && <Text size="sm">{emptyHint}</Text>}
      <List size="sm" spacing={2}>
        {errors.map((e) => (
          <List.Item key={e.code}>
            {explain(e)}{' '}
            <Text span size="xs" c="dimmed" ff="monospace">
              ({e.code})
            </Text>
          </List.Item>
        ))}
      </List>
      {errorReference && (
        <Box mt="xs">
          <CopyReference reference={errorReference} />
        </Box>
      )}
    </Alert>
  );
}
