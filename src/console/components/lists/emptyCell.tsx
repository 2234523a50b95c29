import { Text } from '@mantine/core';

/** What a list's cell shows for a value the record does not have: a dimmed dash, in every list. */
export const emptyCell = (
  <Text span c="dimmed" size="sm">
    —
  </Text>
);
