/** The part of s3rver's API (npm `s3rver`, which ships no types) the test servers use. */
declare module "s3rver" {
  /** An S3 look-alike server on the local filesystem. */
  export default class S3rver {
    constructor(options: {
      address?: string;
      port?: number;
      silent?: boolean;
      directory?: string;
    });
    /** Starts listening; resolves to the address it listens on. */
    run(): Promise<{ address: string; port: number }>;
    /** Stops the server. */
    close(): Promise<void>;
  }
}
