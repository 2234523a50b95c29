/**
 * JSON parsing that refuses duplicated keys anywhere in the document (spec: General
 * conventions 7). JSON.parse silently keeps the last duplicate, so the text is scanned
 * once more: a small tokenizer tracks the keys of every open object.
 */
import { errorMessage } from './thrown.ts';

export class JsonSyntaxError extends Error {}

/** Deeper documents are refused: no body of the spec nests beyond a few levels. */
export const MAX_JSON_DEPTH = 64;

export function parseStrictJson(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new JsonSyntaxError(errorMessage(e));
  }
  assertNoDuplicateKeys(text);
  return value;
}

/**
 * Runs on text JSON.parse accepted, so every string is well formed: a backslash always
 * escapes the next character, so `"\\"` (one backslash) ends at its second quote.
 */
function assertNoDuplicateKeys(text: string) {
  // Stack of key sets for open objects; null for open arrays.
  const stack: (Set<string> | null)[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if ((c === '{' || c === '[') && stack.length >= MAX_JSON_DEPTH)
      throw new JsonSyntaxError(`Nested deeper than ${MAX_JSON_DEPTH} levels`);
    if (c === '{') {
      stack.push(new Set());
      expectKey = true;
    } else if (c === '[') {
      stack.push(null);
      expectKey = false;
    } else if (c === '}' || c === ']') {
      stack.pop();
      expectKey = false;
    } else if (c === ',') {
      expectKey = stack[stack.length - 1] instanceof Set;
    } else if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (expectKey) {
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        const keys = stack[stack.length - 1] as Set<string>;
        if (keys.has(key)) throw new JsonSyntaxError(`Duplicated key "${key}"`);
        keys.add(key);
        expectKey = false;
      }
      i = j;
    }
  }
}
