import { describe, expect, it } from 'vitest';
import { officeTree } from './offices.ts';

describe('officeTree', () => {
  it('lists the tree depth-first, children under their parent, sorted by code', () => {
    const tree = officeTree([
      { code: 'SOUTH', name: 'South', parentCode: 'ROOT' },
      { code: 'ROOT', name: 'Head office', parentCode: null },
      { code: 'NORTH', name: 'North', parentCode: 'ROOT' },
      { code: 'LILLE', name: 'LILLE', parentCode: 'NORTH' },
    ]);
    expect(tree).toEqual([
      { value: 'ROOT', label: 'ROOT — Head office', depth: 0 },
      { value: 'NORTH', label: 'NORTH — North', depth: 1 },
      { value: 'LILLE', label: 'LILLE', depth: 2 },
      { value: 'SOUTH', label: 'SOUTH — South', depth: 1 },
    ]);
  });
  it("the caller's own office is a root even when its parent is outside the tree", () => {
    expect(officeTree([{ code: 'NORTH', name: 'North', parentCode: 'ROOT' }])).toEqual([
      { value: 'NORTH', label: 'NORTH — North', depth: 0 },
    ]);
  });
});
