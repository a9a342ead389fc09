/**
 * The file behind `toolgate proxy --log FILE`: opened for appending and written with synchronous
 * appends. A file stream (`fs.createWriteStream`) sends each write through libuv's thread pool: a
 * thread is woken, and its completion wakes the event loop once more: three more system calls and
 * a loop turn per write, more than the rest of the log line costs (bench/RESULTS.md, proxy). An
 * append to a regular file is one system call into the page cache, made after the messages are on
 * their way (the proxy's decision log is deferred and batched).
 *
 * The file is opened with `O_NONBLOCK`: a FIFO that nobody reads fails (`ENXIO` at open, `EAGAIN`
 * when full) instead of stopping the relay. Failures are the stream's `error` (and `errored`), as
 * a file stream's would be, never thrown: the decision log counts what it could not write.
 */
import { closeSync, constants, openSync, writeSync } from 'node:fs';
import { Writable } from 'node:stream';

/** Opens `path` (absolute) for appending, creating it (mode 0666 less the umask) when missing. */
export function appendingFile(path: string): Writable {
  let fd: number | undefined;
  let failure: Error | undefined;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK, 0o666);
  } catch (e) {
    failure = e as Error;
  }
  const close = () => {
    if (fd !== undefined) closeSync(fd);
    fd = undefined;
  };
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      try {
        // A regular file takes the whole chunk; a pipe may take part of it.
        for (let at = 0; at < chunk.length;) at += writeSync(fd as number, chunk, at);
        done();
      } catch (e) {
        done(e as Error);
      }
    },
    final(done) {
      try {
        close();
        done();
      } catch (e) {
        done(e as Error);
      }
    },
    destroy(error, done) {
      try {
        close();
      } catch {
        // Closing after a failure: the first error is the one reported.
      }
      done(error);
    },
  });
  if (failure) stream.destroy(failure);
  return stream;
}
