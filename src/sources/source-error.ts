/**
 * The error of a source that could not be snapshotted: exit code 3 (util/errors.ts has the
 * configuration errors, exit code 2).
 */
import type { Discovery } from '../surface/model.js';
import type { SnapshotDiagnostics } from './types.js';

/** Why a source failed, for the `server-failed` message. */
export type SourceFailure =
  | 'spawn-failed'
  | 'exited'
  | 'startup-timeout'
  | 'request-timeout'
  | 'protocol-error'
  | 'list-error'
  | 'cursor-loop'
  | 'page-cap'
  | 'byte-cap'
  | 'http-error'
  | 'load-failed'
  /** The server sent more requests or notifications than toolgate queues (it never reads the answers). */
  | 'flood';

/** A source could not be snapshotted: exit code 3 and a `server-failed` finding. */
export class SourceError extends Error {
  override readonly name = 'SourceError';
  readonly exitCode = 3;
  /**
   * What the started command told of its containment, in the shape a listed snapshot has it: how
   * it ran (`sandbox`), processes that outlived it and were killed (`escaped`), hosts it failed to
   * reach (`networkBlocked`). run-check.ts reports a failure's as a success's.
   */
  diagnostics: Pick<SnapshotDiagnostics, 'sandbox' | 'escaped' | 'networkBlocked'> = {};
  /** HTTP: the server answered 401 (it wants credentials toolgate lacked). */
  unauthorized?: boolean;
  /** HTTP, after a 401: what RFC 9728 discovery found. */
  protectedResource?: Discovery;
  constructor(
    message: string,
    readonly reason: SourceFailure,
    /** Last bytes of the server's stderr, when there is a process. */
    public stderrTail?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
