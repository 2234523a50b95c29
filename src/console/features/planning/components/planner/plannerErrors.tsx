/**
 * Where the planner form's sections read their errors: the form's own check (before
 * sending) on an input, else the service's refusal of the URL's search for that input.
 */
import { Input, Stack } from '@mantine/core';
import { createContext, useContext } from 'react';
import type { PlannerField } from '../../request.ts';

export interface PlannerErrors {
  /** Every message of an input. */
  errorsOf(field: PlannerField): string[];
  /** The messages of an input as one text (undefined: none). */
  errorOf(field: PlannerField): string | undefined;
  /** The service refused the URL's search on this input. */
  refused(field: PlannerField): boolean;
}

export const PlannerErrorsContext = createContext<PlannerErrors>({
  errorsOf: () => [],
  errorOf: () => undefined,
  refused: () => false,
});

export const usePlannerErrors = () => useContext(PlannerErrorsContext);

/** The messages of a group of inputs (the place, the coordinates, the ranges). */
export function FieldError({ field }: { field: PlannerField }) {
  const messages = usePlannerErrors().errorsOf(field);
  if (messages.length === 0) return null;
  return (
    <Stack gap={2} data-testid={`error-${field}`}>
      {messages.map((m) => (
        <Input.Error key={m} role="alert">
          {m}
        </Input.Error>
      ))}
    </Stack>
  );
}

/** The choices of a multi-select, plus the values it holds that are not among them (from a link). */
export function mergeChoices(data: { value: string; label: string }[], values: readonly string[]) {
  const known = new Set(data.map((d) => d.value));
  return [...data, ...values.filter((v) => !known.has(v)).map((v) => ({ value: v, label: v }))];
}
