// Types of scripts/release-check.mjs, for test/release.test.ts.

/** What the agreement checks read from a checkout. */
export interface Release {
  /** package.json's version. */
  version: string;
  /** package-lock.json's copies of it, by where they are. */
  lockVersions: Record<string, string | undefined>;
  /** What `node dist/cli.js --version` prints. */
  cliVersion: string;
  /** The text of src/version.ts. */
  versionTs: string;
  /** The text of action.yml. */
  actionYml: string;
  /** README.md and examples/workflows/*.yml, by path. */
  docs: Record<string, string>;
}

export declare function readRelease(root: string): Release;
/** Where the release's version disagrees (empty: all agree); `tag` must be `v` + the version. */
export declare function agreementProblems(release: Release, tag?: string): string[];
