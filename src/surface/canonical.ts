import { createHash } from 'node:crypto';

/** sha256 of a string's UTF-8 bytes, lower-case hex (64 chars). */
export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
