import { remove as removeConfusables } from 'confusables';

/**
 * Characters that render as nothing or reorder text: a name containing one can impersonate
 * another (`run_sh\u200Bell` shows as `run_shell`).
 */
// Each listed code point is wanted on its own, combining ones (U+034F) included.
export const INVISIBLE =
  // eslint-disable-next-line no-misleading-character-class
  /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0]|\uDB40[\uDC00-\uDDEF]/u;
// eslint-disable-next-line no-misleading-character-class
const INVISIBLE_ALL = new RegExp(INVISIBLE.source, 'gu');

/**
 * The name a person reads: NFKC (full-width and compatibility forms folded), invisible characters
 * removed, look-alike letters folded to their Latin twins (the `confusables` package, whose map
 * leaves ASCII alone), lower case. `ѕhеll` (Cyrillic ѕ, е), `ＳＨＥＬＬ` and `sh\u200Bell` all
 * read `shell`. For matching deny patterns, which must not be dodged by spelling.
 */
export function foldName(name: string): string {
  return removeConfusables(name.normalize('NFKC').replace(INVISIBLE_ALL, '')).toLowerCase();
}
