import { join } from "node:path";
import { errorNames, isZarrError, type ZarrErrorName } from "@z/errors";
import { describe, expect, it } from "vitest";
import { entryPoints, packageFolders, REPO_ROOT } from "./api-surface.js";

// Every error class a package exports is registered for `isZarrError(e, name)`: named on its
// prototype (so the name survives minification and subclasses find it), branded, and declared
// in `ZarrErrorMap` (so the name narrows to the class). The list below is checked against
// `ZarrErrorMap` by the type checker (`satisfies`: no name missing, none extra), and against
// the packages' exports at run time, so a new error class must be registered to pass.

/** The registered names of the packages' classes (tests register classes named `Test...`). */
type PackageErrorName = Exclude<ZarrErrorName, `Test${string}`>;

const REGISTERED = {
  AbortError: true,
  ArrowEncodeError: true,
  ArrowFieldError: true,
  ArrowSchemaMismatchError: true,
  ArrowValueError: true,
  AzureConfigError: true,
  BoundsError: true,
  BrowserStorageError: true,
  CastValueError: true,
  ChecksumError: true,
  ChunkGridError: true,
  ClosedFileError: true,
  CodecConfigError: true,
  CodecError: true,
  CodecNotLoadedError: true,
  CodecPipelineError: true,
  ConfigError: true,
  ConflictError: true,
  ContainsArrayError: true,
  ContainsGroupError: true,
  CopyOptionError: true,
  DataTypeMismatchError: true,
  DataTypeNotLoadedError: true,
  DecodeError: true,
  DecompressionError: true,
  EncodeError: true,
  FileExistsError: true,
  FileModeError: true,
  FillValueError: true,
  FsError: true,
  H5Error: true,
  H5TypeError: true,
  H5ValueError: true,
  HttpError: true,
  IcechunkConflictError: true,
  IcechunkError: true,
  IcechunkFormatError: true,
  IcechunkObjectMissingError: true,
  IcechunkRefNotFoundError: true,
  IcechunkRepositoryNotFoundError: true,
  IcechunkSessionError: true,
  IcechunkSnapshotNotFoundError: true,
  IncompleteRollbackError: true,
  InvalidDataTypeError: true,
  InvalidKeyError: true,
  InvalidMetadataError: true,
  InvalidRangeError: true,
  InvalidReferenceError: true,
  InvalidSelectionError: true,
  MetadataError: true,
  MetadataLimitError: true,
  MigrationError: true,
  MixedFormatsError: true,
  NameExistsError: true,
  NodeError: true,
  NotEmptyError: true,
  NotFoundError: true,
  OmeMetadataError: true,
  OmeOptionError: true,
  OutsideRootError: true,
  PythonJsonSyntaxError: true,
  ReadOnlyError: true,
  ReferenceTargetError: true,
  S3ConfigError: true,
  ScaleOffsetError: true,
  SelectionError: true,
  ShapeMismatchError: true,
  StatsUnsupportedError: true,
  StoreError: true,
  TooManyConflictsError: true,
  UnknownCodecError: true,
  UnknownDataTypeError: true,
  UnknownStorageTransformerError: true,
  UnsupportedError: true,
  UnsupportedExtensionError: true,
  UnsupportedOperationError: true,
  UsageError: true,
  ValueShapeError: true,
  ValueTypeError: true,
  VirtualChunkError: true,
  VirtualChunkModifiedError: true,
  WorkerFailedError: true,
  WorkerPoolClosedError: true,
  ZarrError: true,
  ZipError: true,
} as const satisfies Record<PackageErrorName, true>;

type ErrorClass = abstract new (...args: never[]) => Error;

/** The error classes an entry point exports, by exported name. */
async function exportedErrorClasses(file: string): Promise<[string, ErrorClass][]> {
  const module = (await import(join(REPO_ROOT, file))) as Record<string, unknown>;
  return Object.entries(module).filter(
    (entry): entry is [string, ErrorClass] =>
      typeof entry[1] === "function" && entry[1].prototype instanceof Error,
  );
}

/** An instance of an error class, from the first of a few argument lists its constructor takes. */
function instanceOf(errorClass: ErrorClass): Error {
  const attempts: unknown[][] = [["x"], ["x", "x", "x"], ["x", 2, "x", 2], []];
  for (const args of attempts) {
    try {
      return Reflect.construct(errorClass, args) as Error;
    } catch {
      // The next argument list.
    }
  }
  throw new Error(`${errorClass.name}: no argument list constructs it`);
}

const entries = packageFolders().flatMap((folder) => entryPoints(folder));

describe("every exported error class is registered for isZarrError", () => {
  for (const entry of entries) {
    it(`${entry.label}`, async () => {
      const classes = await exportedErrorClasses(entry.file);
      const exported = new Map(classes);
      for (const [name, errorClass] of classes) {
        // The exported name is a registered name (`isZarrError(e, name)` type checks) ...
        expect(Object.hasOwn(REGISTERED, name), `${name} is not in ZarrErrorMap`).toBe(true);
        const error = instanceOf(errorClass);
        // ... the class names itself on its prototype (not only its instances or its parent) ...
        const prototypeName = Object.getOwnPropertyDescriptor(errorClass.prototype, "name");
        expect(prototypeName?.value, `${name}.prototype.name`).toBe(name);
        expect(errorNames(error)[0], `${name}'s own name`).toBe(name);
        expect(error.name).toBe(name);
        // ... and narrows: the brand is there and the name is found on the instance.
        expect(isZarrError(error), `${name} carries the brand`).toBe(true);
        expect(isZarrError(error, name as ZarrErrorName)).toBe(true);
        // Every exported error class it extends narrows it too.
        for (const [other, otherClass] of exported) {
          if (other !== name && error instanceof otherClass)
            expect(isZarrError(error, other as ZarrErrorName), `${name} as ${other}`).toBe(true);
        }
      }
    });
  }

  it("found the error classes of every package that has some", async () => {
    const found = new Set<string>();
    for (const entry of entries)
      for (const [name] of await exportedErrorClasses(entry.file)) found.add(name);
    // Registered names that no entry point exports would be stale registrations.
    expect([...found].sort()).toEqual(Object.keys(REGISTERED).sort());
  });
});
