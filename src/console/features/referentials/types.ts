/**
 * Record shapes the pages work on, all from the contract (`src/contract/referentials.ts`):
 * records are the GET responses, bodies the PUT inputs.
 */
import type { Customer } from '../../../contract/referentials.ts';

export type { ReferentialEntity } from './paths.ts';
export type { BodyOf, RecordOf } from './transport.ts';

/** A contact as a record carries it (customer and site). */
export type Contact = NonNullable<Customer['contact']>;
