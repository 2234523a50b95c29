/** Types of chromium.mjs (plain JavaScript: bench/e2e-cpu.mjs imports it too). */
export declare const CHROMIUM: string;
export declare const CHROMIUM_ARGS: string[];
