/**
 * The characters a code may hold, as the console checks them before sending: ASCII
 * letters, digits, `-`, `_` and `.` (no space, no other punctuation: codes go into URLs,
 * CSV files and `code:` path segments). The contract's `Code()` schema enforces the same
 * rule in the service (codeRule.test.ts checks that the console never accepts a code the
 * contract refuses). Case-insensitive; stored uppercase.
 */
import { z } from 'zod';

export const CODE_RULE = /^[A-Za-z0-9_.-]+$/;

/** i18n key of the message for a code that breaks the rule (namespace `common`). */
export const CODE_RULE_MESSAGE = 'common:validation.code';

/** A code typed in a form: trimmed, 1..max characters of the rule, uppercased. */
export const codeSchema = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .regex(CODE_RULE, { message: CODE_RULE_MESSAGE })
    .transform((c) => c.toUpperCase());
