/**
 * The planning feature's public face (docs/console.md, Edges): the time and date helpers of
 * the display time zone, which the dispatch board shares.
 */
export { type Formats, formats } from './format.ts';
export {
  addDays,
  browserTimeZone,
  fromApiDateTime,
  fromLocalInput,
  MINUTE,
  toApiDateTime,
  zoned,
} from './time.ts';
