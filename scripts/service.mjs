/**
 * A service started ahead of the runner that needs it (scripts/test.mjs: the end-to-end
 * service, while the PostgreSQL runner works), as Playwright's webServer would run it: in its
 * own process group, which SIGTERM stops (SIGKILL 15 s later), its output in `log`.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';

export function startService({ script, env, readyUrl, log }) {
  const fd = openSync(log, 'w');
  const child = spawn(process.execPath, [script], { env, stdio: ['ignore', fd, fd], detached: true });
  closeSync(fd);
  let running = true;
  const exited = new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      running = false;
      resolve(code ?? signal);
    }),
  );
  const signal = (name) => {
    try {
      if (running) process.kill(-child.pid, name);
    } catch {
      // already gone
    }
  };
  // Whatever ends this process, the service and its children end with it.
  process.on('exit', () => signal('SIGKILL'));
  return {
    /** True once `readyUrl` answers 2xx; false when the service exited or `limitMs` passed first. */
    async ready(limitMs) {
      const until = Date.now() + limitMs;
      while (running && Date.now() < until) {
        try {
          if ((await fetch(readyUrl)).ok) return true;
        } catch {
          // not listening yet
        }
        await new Promise((r) => setTimeout(r, 250));
      }
      return false;
    },
    /** The last lines it printed. */
    tail: () => readFileSync(log, 'utf8').split('\n').slice(-40).join('\n'),
    async stop() {
      signal('SIGTERM');
      const late = setTimeout(() => signal('SIGKILL'), 15_000);
      const how = await exited;
      clearTimeout(late);
      return how;
    },
  };
}
