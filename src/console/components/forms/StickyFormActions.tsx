import { Button, Group, Paper, Text } from '@mantine/core';

/**
 * The bar at the bottom of a page form, kept in view while scrolling: a hint (what is
 * required, or that fields need attention), Cancel and the submit button.
 */
export function StickyFormActions({
  hasErrors,
  requiredHint,
  errorsHint,
  cancelLabel,
  onCancel,
  submitLabel,
  submitting,
}: {
  hasErrors: boolean;
  requiredHint: string;
  errorsHint: string;
  cancelLabel: string;
  onCancel: () => void;
  submitLabel: string;
  submitting: boolean;
}) {
  return (
    <Paper
      withBorder
      p="sm"
      radius="md"
      pos="sticky"
      bottom={0}
      style={{ zIndex: 5, background: 'var(--mantine-color-body)' }}
    >
      <Group justify="space-between">
        <Text size="xs" c={hasErrors ? 'red' : 'dimmed'}>
          {hasErrors ? errorsHint : requiredHint}
        </Text>
        <Group gap="sm">
          <Button variant="default" onClick={onCancel}>
            {cancelLabel}
          </Button>
          <Button type="submit" loading={submitting} data-testid="save">
            {submitLabel}
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}
