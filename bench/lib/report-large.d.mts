import type { BrowserReport } from "./browser.mjs";
import type { LargeReport } from "./large.mjs";
export function formatLargeReport(large: LargeReport): string;
export function formatBrowserReport(browser: BrowserReport): string;
