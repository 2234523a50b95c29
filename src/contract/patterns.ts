/**
 * Regular expressions a caller supplies (an item's `serialNumberPattern`), matched by a
 * linear-time engine (RE2, the re2js port): no pattern can backtrack catastrophically, so
 * matching any serial of 200 characters takes well under 10 ms whatever the pattern.
 * JavaScript syntax is translated to RE2's; what RE2 cannot run in linear time
 * (backreferences, lookarounds) is refused as invalid.
 */
import { RE2JS } from 're2js';

/** The compiled pattern, or undefined when RE2 refuses it. */
function compile(pattern: string): RE2JS | undefined {
  try {
    return RE2JS.compile(RE2JS.translateRegExp(pattern));
  } catch {
    return undefined;
  }
}

/** True when the text is a pattern the service can match (linear time). */
export const isValidPattern = (pattern: string): boolean => compile(pattern) !== undefined;

// Compiled patterns, by text (a handful of item patterns in practice; bounded anyway).
const compiled = new Map<string, RE2JS | undefined>();
const COMPILED_MAX = 1000;

/** Whether `text` contains a match of `pattern` (as RegExp.test); false for a pattern RE2 refuses. */
export function matchesPattern(pattern: string, text: string): boolean {
  let re = compiled.get(pattern);
  if (!compiled.has(pattern)) {
    if (compiled.size >= COMPILED_MAX) compiled.clear();
    re = compile(pattern);
    compiled.set(pattern, re);
  }
  return re ? re.test(text) : false;
}
