/**
 * The environment of the test runners (scripts/test.mjs): plain text, without ANSI colour
 * codes, in CI or when FORCE_COLOR=0 or NO_COLOR asks for it; colours otherwise.
 *
 * FORCE_COLOR=0 alone is not enough: Vitest's colour library turns colours ON when
 * FORCE_COLOR is present whatever its value, and when CI is set; Playwright forces
 * FORCE_COLOR=1 into its workers and web server. NO_COLOR is the switch all of them
 * (and npm, Vite) honour over FORCE_COLOR, so plain output sets it and drops FORCE_COLOR.
 */
export function runnerEnv(env) {
  const off = (v) => v === '0' || v === 'false';
  const plain =
    (env.NO_COLOR !== undefined && env.NO_COLOR !== '') ||
    off(env.FORCE_COLOR) ||
    (Boolean(env.CI) && env.FORCE_COLOR === undefined);
  const out = { ...env };
  if (plain) {
    delete out.FORCE_COLOR;
    out.NO_COLOR = '1';
    out.npm_config_color = 'false';
  } else out.FORCE_COLOR ??= '1';
  return out;
}
