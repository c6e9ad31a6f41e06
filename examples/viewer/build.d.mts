/** Builds the viewer into `outDir` (default `examples/viewer/dist`); resolves to the folder. */
export function buildViewer(outDir?: string): Promise<string>;
