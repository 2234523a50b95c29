import { describe, expect, it } from 'vitest';
import { createSseParser } from './sse.ts';

describe('SSE parser', () => {
  it('dispatches on a blank line, joins data lines, keeps the last id and skips comments', () => {
    const p = createSseParser();
    const events = p.push(': heartbeat\n\nid: 7\nevent: change\ndata: {"a":\ndata: 1}\n\ndata: plain\n\n');
    expect(events).toEqual([
      { id: '7', event: 'change', data: '{"a":\n1}' },
      { id: '7', event: 'message', data: 'plain' },
    ]);
  });

  it('completes events split across chunks, CRLF included', () => {
    const p = createSseParser();
    expect(p.push('id: 1\r\nevent: chan')).toEqual([]);
    expect(p.push('ge\r\ndata: x\r')).toEqual([]);
    expect(p.push('\n\r\n')).toEqual([{ id: '1', event: 'change', data: 'x' }]);
  });

  it('drops an event without data and reads retry', () => {
    const p = createSseParser();
    expect(p.push('event: change\n\nretry: 2500\n\n')).toEqual([]);
    expect(p.retry).toBe(2500);
    // An id without data dispatches nothing but is the resume point.
    expect(p.push('id: 99\n\n')).toEqual([]);
    expect(p.lastEventId).toBe('99');
  });
});
