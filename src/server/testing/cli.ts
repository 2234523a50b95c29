import { type CliIo, runCli } from '../cli/program.ts';

/** Runs the command line in-process and returns its exit code and what it printed. */
export async function runCapturedCli(argv: string[], io: Partial<CliIo> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    env: { LOG_LEVEL: 'silent' },
    ...io,
    stdout: (s) => {
      stdout += s;
    },
    stderr: (s) => {
      stderr += s;
    },
  });
  return { code, stdout, stderr };
}
