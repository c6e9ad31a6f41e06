/** What `zarr info --help` says of `--stats`. */
export const STATS_HELP = `With --stats (arrays of integers, floats or booleans) it also reads the values, one chunk
or shard at a time, and adds their count, NaN count, minimum and maximum (NaN left out;
exact for 64-bit integers), mean (float64) and a histogram of the finite values in --bins
equal bins (default 10, counted as numpy.histogram counts float64 values); booleans get
their true and false counts. Chunks never written count as the fill value.`;
