/**
 * A parser of the `text/event-stream` format (WHATWG HTML, "Server-sent events"), fed with
 * decoded chunks as they arrive: the console reads the change stream with `fetch` (an
 * EventSource cannot send the bearer header), so it parses the events itself.
 */

export interface SseEvent {
  /** The `id:` of the event, or the last one seen before it (the resume point). */
  id: string;
  /** `event:`; `message` when absent. */
  event: string;
  data: string;
}

export interface SseParser {
  /** Feeds a chunk; returns the events it completes (a chunk may end mid-line). */
  push(chunk: string): SseEvent[];
  /** The last `retry:` the server asked for, in ms (null: none). */
  readonly retry: number | null;
  /** The id of the last whole block, with data or not (a resume point given up front). */
  readonly lastEventId: string;
}

export function createSseParser(): SseParser {
  let buffer = '';
  let lastId = '';
  let idBuffer = '';
  let event = '';
  let data: string[] = [];
  let retry: number | null = null;

  const line = (text: string, out: SseEvent[]) => {
    if (text === '') {
      // A blank line dispatches: the id seen becomes the resume point (even without data, as
      // in EventSource); an event without data is dropped.
      lastId = idBuffer;
      if (data.length > 0) out.push({ id: lastId, event: event || 'message', data: data.join('\n') });
      event = '';
      data = [];
      return;
    }
    if (text.startsWith(':')) return; // a comment: the server's heartbeat
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    else if (field === 'id' && !value.includes('\0')) idBuffer = value;
    else if (field === 'retry' && /^\d+$/.test(value)) retry = Number(value);
  };

  return {
    push(chunk) {
      buffer += chunk;
      const out: SseEvent[] = [];
      // Lines end with CRLF, LF or CR; a CR at the very end may be the first half of a CRLF.
      const re = /\r\n|\n|\r(?!$)/g;
      let start = 0;
      for (let m = re.exec(buffer); m; m = re.exec(buffer)) {
        line(buffer.slice(start, m.index), out);
        start = m.index + m[0].length;
      }
      buffer = buffer.slice(start);
      return out;
    },
    get retry() {
      return retry;
    },
    get lastEventId() {
      return lastId;
    },
  };
}
