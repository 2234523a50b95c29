import { describe, expect, it } from 'vitest';
import { CODE_PATTERN } from '../../../contract/common.ts';
import { CODE_RULE, CODE_RULE_MESSAGE, codeSchema } from './codeRule.ts';

const ACCEPTED = ['ACME', 'acme-2', 'A_B.C', '0', 'x'.repeat(200)];
const REFUSED = [
  'BAD CODE!',
  'A B',
  'a/b',
  'a:b',
  'é',
  'straße',
  'ı',
  'Ⅻ',
  '٣',
  'A,B',
  'A;B',
  "A'B",
  'A#',
  '',
  ' ',
];

describe('the code rule of the forms', () => {
  it('accepts letters, digits, "-", "_" and "."; uppercases', () => {
    for (const c of ACCEPTED) expect(codeSchema(200).safeParse(c).success, c).toBe(true);
    expect(codeSchema(200).parse(' acme-2 ')).toBe('ACME-2');
  });
  it('refuses spaces and punctuation with the rule message', () => {
    const r = codeSchema(200).safeParse('BAD CODE!');
    expect(r.success).toBe(false);
    expect(r.error?.issues[0].message).toBe(CODE_RULE_MESSAGE);
    for (const c of REFUSED) expect(codeSchema(200).safeParse(c).success, JSON.stringify(c)).toBe(false);
  });
  it('is the contract rule itself (one source)', () => {
    expect(CODE_RULE).toBe(CODE_PATTERN);
    for (const c of [...ACCEPTED, ...REFUSED]) expect(CODE_RULE.test(c), c).toBe(CODE_PATTERN.test(c));
  });
});
