/** invalid-tool-name: outside [A-Za-z0-9_.-]{1,128}, or with invisible characters. */
import { readTool, ruleTests } from '../support/surface-builders.js';

const LONG = 'a'.repeat(129);
const MAX = 'b'.repeat(128);

ruleTests('invalid-tool-name', {
  fires: [
    {
      name: 'a 129-character name',
      head: [readTool(LONG)],
      expect: [{ ruleId: 'invalid-tool-name', tool: LONG, level: 'warning', data: { invisible: false }, message: 'is 129 characters long' }],
    },
    {
      name: 'a zero-width space (U+200B) inside the name',
      head: [readTool('get\u200Bfile'), readTool('getfile')],
      expect: [{ ruleId: 'invalid-tool-name', tool: 'get\u200Bfile', data: { invisible: true }, message: 'U+200B' }],
    },
    {
      name: 'a space',
      head: [readTool('get file')],
      expect: [{ ruleId: 'invalid-tool-name', tool: 'get file', data: { invisible: false }, message: 'U+0020' }],
    },
    {
      name: 'a Cyrillic look-alike letter',
      head: [readTool('g\u0435t')],
      expect: [{ ruleId: 'invalid-tool-name', tool: 'g\u0435t', message: 'U+0435' }],
    },
    {
      name: 'each offending code point is listed once',
      base: [],
      head: [readTool('`a`**b**')],
      expect: [{ ruleId: 'invalid-tool-name', tool: '`a`**b**', message: '(U+0060, U+002A)' }],
    },
  ],
  silent: [
    {
      name: 'exactly 128 characters',
      head: [readTool(MAX)],
      expect: [],
    },
    {
      name: 'every allowed character class',
      head: [readTool('Az09_.-'), readTool('files.read-v2_x')],
      expect: [],
    },
  ],
});
