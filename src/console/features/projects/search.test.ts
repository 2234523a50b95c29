import { describe, expect, it } from 'vitest';
import { validateLinkerSearch, validateListSearch } from './search.ts';

describe('the URL search of the Project management pages', () => {
  it('a list keeps a trimmed, bounded text and drops an empty one', () => {
    expect(validateListSearch({ q: '  prj ' })).toEqual({ q: 'prj' });
    expect(validateListSearch({ q: '   ' })).toEqual({ q: undefined });
    expect(validateListSearch({ q: 42 })).toEqual({ q: undefined });
    expect(validateListSearch({ q: 'x'.repeat(500) }).q).toHaveLength(200);
  });
  it('the linker shows the graph unless the list is asked for', () => {
    expect(validateLinkerSearch({ view: 'list' })).toEqual({ view: 'list' });
    expect(validateLinkerSearch({ view: 'graph' })).toEqual({ view: 'graph' });
    expect(validateLinkerSearch({ view: 'other' })).toEqual({ view: undefined });
    expect(validateLinkerSearch({})).toEqual({ view: undefined });
  });
});
