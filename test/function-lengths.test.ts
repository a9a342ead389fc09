/**
 * scripts/function-lengths.mjs: which functions count, how their lines are counted,
 * and the `// long: <reason>` comment that lets one stay long. .ci/run runs it on src/.
 */
import { describe, expect, it } from 'vitest';
import { longFunctionsIn } from '../scripts/function-lengths.mjs';

/** A body of `n` statement lines. */
const body = (n: number): string => Array.from({ length: n }, (_, i) => `  x += ${i};`).join('\n');

describe('function lengths', () => {
  it('counts from the declaration line (after its TSDoc) to the closing brace', () => {
    // 1 line for the signature, 3 body lines, 1 closing brace: 5 lines.
    const text = `/**\n * Doc.\n */\nexport function f(x: number): number {\n${body(3)}\n  return x;\n}\n`;
    expect(longFunctionsIn('a.ts', text, 5)).toEqual([{ name: 'f', kind: 'function', line: 4, lines: 6, reason: undefined }]);
    expect(longFunctionsIn('a.ts', text, 6)).toEqual([]);
  });

  it('finds methods, constructors, accessors, arrow functions and function expressions, nested ones too', () => {
    const text = [
      'class C {',
      `  constructor() {\n${body(3)}\n  }`,
      `  m(): void {\n${body(3)}\n  }`,
      `  get g(): number {\n${body(3)}\n    return 1;\n  }`,
      '}',
      `const a = (x: number) => {\n${body(3)}\n};`,
      `const o = { p: function () {\n${body(3)}\n} };`,
      `function outer() {\n  const inner = () => {\n${body(3)}\n  };\n}`,
      'declare function overload(x: string): void;',
    ].join('\n');
    const found = longFunctionsIn('a.ts', text, 4).map((f) => `${f.kind} ${f.name}`);
    expect(found).toEqual([
      'constructor constructor',
      'method m',
      'getter g',
      'arrow function a',
      'function expression p',
      'function outer',
      'arrow function inner',
    ]);
  });

  it('a one-line `// long: <reason>` comment just above lets a function stay long, and is reported', () => {
    const text = `/** Doc. */\n// long: one case per kind reads as a table\nfunction f() {\n${body(5)}\n}\n\n// long:\nfunction g() {\n${body(5)}\n}\n`;
    expect(longFunctionsIn('a.ts', text, 3)).toEqual([
      { name: 'f', kind: 'function', line: 3, lines: 7, reason: 'one case per kind reads as a table' },
      // A comment without a reason does not count.
      { name: 'g', kind: 'function', line: 12, lines: 7, reason: undefined },
    ]);
  });
});
