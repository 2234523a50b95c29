#!/usr/bin/env node
// The operator's command line (`npx fieldwork --help`). The service is TypeScript run
// through tsx, so there is nothing to build first.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/server/cli/program.ts');
const code = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stderrIsTTY: process.stderr.isTTY,
  env: process.env,
});
process.exitCode = code;
