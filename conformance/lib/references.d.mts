/** The features an array uses, for coverage counts and samples. */
export interface Features {
  dtype: string;
  codecs: string[];
  extra: string[];
}

/** One distinct reading of an array (readers that agree share it). */
export interface Reference {
  /** A JSON file with `{shape, dtype, canon}`: the canonical values. */
  file: string;
  readers: string[];
  shape: number[];
  dtype: unknown;
}

/** An array of the plan: where it is, what it uses, and its reference readings. */
export interface PlannedArray {
  id: string;
  source: string;
  container: "folder" | "zip";
  location: string;
  path: string;
  formats: number[];
  features: Features;
  refs: Reference[];
  /** Readers that could not read it, or whose reading was set aside, with why. */
  failures: string[];
  /** How the readings differ, when readers disagree. */
  disagreement?: string;
  variantOf?: string;
  numcodecsStatus?: string;
}

/** Every array with its references, cached by the fixtures' content. */
export interface Plan {
  key: string;
  dir: string;
  readers: { python: string; zarrita: string; failures: Record<string, string> };
  arrays: PlannedArray[];
}

export function preparePlan(options: {
  fixturesDir: string;
  cacheRoot: string;
  python?: string;
  log?: (line: string) => void;
}): Promise<Plan>;

export function zarritaVersion(): string;

/** `$ZARR_CONFORMANCE_CACHE`, else `node_modules/.cache/z-conformance` of the repository. */
export function conformanceCacheRoot(repositoryRoot: string): string;
