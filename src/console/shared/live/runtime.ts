/**
 * The stream's code, loaded once the console is signed in (not with the sign-in and the
 * shell, whose size is budgeted: docs/console.md).
 */
export { changeApplier, reloadShown } from './invalidate.ts';
export { runChangeStream, STREAM_PATH } from './stream.ts';
