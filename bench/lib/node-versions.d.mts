export function nodePackageName(platform?: string, arch?: string): string;
export function runningMajor(): number;
export function findNode(
  major: number,
  where: {
    cacheDir: string;
    env?: Record<string, string | undefined>;
    install?: boolean;
    say?: (line: string) => void;
  },
): Promise<{ binary: string; version: string; missing?: undefined } | { missing: string }>;
export function childArguments(argv: string[]): string[];
export function runChild(
  binary: string,
  script: string,
  args: string[],
  env?: Record<string, string | undefined>,
): Promise<number>;
