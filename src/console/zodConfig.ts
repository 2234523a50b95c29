/**
 * Imported first by main.tsx, before any schema is built: zod compiles object parsers with
 * `new Function` when it may, and probes for it once; under the console's CSP (no
 * 'unsafe-eval', src/server/platform/console.ts) the probe is refused and reported as a CSP
 * violation. Without the probe, zod parses with its interpreter.
 */
import { config } from 'zod';

config({ jitless: true });
