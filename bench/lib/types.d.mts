// Types shared by the declaration files of the benchmark's JavaScript modules (for the test).

/** An n-d float32 array in C order. */
export interface Volume {
  data: Float32Array;
  shape: number[];
  stride: number[];
}

/** One library's numbers for one operation and codec. */
export interface LibraryStat {
  mibPerSec: number;
  seconds: number;
  peakMiB: number;
  peakRssMiB: number;
  peakArrayBuffersMiB: number;
  runs: {
    seconds: number;
    mibPerSec: number;
    peakMiB: number;
    peakRssMiB: number;
    peakArrayBuffersMiB: number;
  }[];
  storedMiB?: number;
  chunksPerSec?: number;
}

/** One operation on one codec configuration; a library is null where it cannot do it. */
export interface BenchResult {
  op: "write" | "read" | "chunk";
  codec: string;
  unit: "MiB/s";
  chunks?: number;
  ours: LibraryStat | null;
  zarrita: LibraryStat | null;
}

/** A whole run. */
export interface BenchReport {
  config: {
    size: string;
    shape: number[];
    chunks: number[];
    dtype: "float32";
    volumeMiB: number;
    codecs: string[];
    ops: string[];
    repeats: number;
    chunkReads: number;
    fsync: boolean;
    node: string;
    date: string;
    seconds: number;
    loadAverage: { start: number; end: number };
  };
  results: BenchResult[];
  notes: string[];
}
