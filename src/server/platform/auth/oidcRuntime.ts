/**
 * oidc-provider 9 supports the Node.js LTS lines from 22 (its runtime check wants LTS
 * "Jod" or later) and prints `Unsupported runtime` when imported on Node 20, which this
 * service supports (package.json engines) and is tested on. docs/operations.md (Runtime) says so once;
 * this drops that one line, which would otherwise appear at every start and in every
 * test file. Imported by oidc.ts before oidc-provider itself; every other warning passes.
 */
const UNSUPPORTED_RUNTIME = 'oidc-provider WARNING: Unsupported runtime.';
const warn = console.warn;
console.warn = (...args: unknown[]) => {
  if (typeof args[0] === 'string' && args[0].includes(UNSUPPORTED_RUNTIME)) return;
  warn(...args);
};
