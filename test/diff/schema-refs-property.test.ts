/**
 * Property test (fast-check) of the schema diff against the validator: for generated pairs of
 * tool schemas that reach an argument's schema through every form of reference (`$anchor`, `$id`
 * absolute, `urn:` and relative, JSON pointers into `$defs`, `definitions`, `properties`, `items`,
 * an unknown keyword and an embedded resource, `$dynamicRef`, `$recursiveRef`), with decoys and
 * siblings, whenever Ajv accepts call arguments under the new schema that it rejects under the old
 * one, toolgate reports a widening (`widened`, `both`) or fails closed (`unclassified`). Ajv is
 * asked twice: as the proxy enforces a pinned tool (src/runtime/arguments.ts: every dialect the
 * schema compiles in, top-level names declared), and as plain JSON Schema 2020-12. Both schemas go
 * through pinning (normalizeTool) first, as a contract stores them.
 *
 * A second property covers schemas that compile in one dialect only: a draft-07 tuple beside
 * (`"items": [...]`, which 2020-12 refuses) or not, and a constraint written in a form one dialect
 * defines and the other does not (`dependencies` / `dependentRequired` / `dependentSchemas`,
 * array `items` / `prefixItems`, `$ref: "#"` / `$recursiveRef` / `$dynamicRef`); there Ajv is asked
 * only as the proxy enforces the schema.
 *
 * Bounded: RUNS pairs (150; set SCHEMA_REFS_RUNS for more) of schemas under 20 nodes each.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { classifySchemaChange, closeSchemaWorkers } from '../../src/diff/schema/index.js';
import { ArgumentsChecker } from '../../src/runtime/arguments.js';
import { normalizeTool } from '../../src/surface/normalize.js';
import { compileInputSchema } from '../../src/surface/schema-validators.js';
import type { SurfaceTool } from '../../src/surface/model.js';
import type { Json, JsonObject } from '../../src/util/json.js';

afterAll(() => closeSchemaWorkers());

const RUNS = Number(process.env.SCHEMA_REFS_RUNS ?? 150);

/** How `cmd` reaches its schema. */
const FORMS = ['anchor', 'urn', 'absolute', 'relative', 'pointer', 'dynamic-anchor', 'dynamic-root', 'recursive-root'] as const;
/** Where the target schema sits. `lib` is inside an embedded resource (`$id: https://example.com/lib.json`). */
const PLACES = ['$defs', 'definitions', 'properties', 'items', 'x-vendor', 'lib'] as const;
/** What the target accepts. */
const CONTENTS: JsonObject[] = [
  { type: 'string', enum: ['ls', 'pwd'] },
  { type: 'string', enum: ['ls'] },
  { type: 'string', enum: ['ls', 'pwd', 'rm'] },
  { type: 'string' },
  { enum: ['ls', 1] },
  { const: 'ls' },
  { type: 'string', maxLength: 2 },
  { type: ['string', 'number'] },
  {},
  { type: 'number' },
  { not: { const: 'rm' } },
];

interface Shape {
  form: (typeof FORMS)[number];
  place: (typeof PLACES)[number];
  /** A sibling next to the reference at `cmd` (validation or annotation), or none. */
  sibling: JsonObject;
  /** A second schema named like the target in another place (`$defs.tgt`, an anchor...), or none. */
  decoy: 'none' | 'defs-name' | 'same-anchor' | 'root-pointer';
}

const shapeArb: fc.Arbitrary<Shape> = fc.record({
  form: fc.constantFrom(...FORMS),
  place: fc.constantFrom(...PLACES),
  sibling: fc.constantFrom<JsonObject>({}, {}, { minLength: 1 }, { description: 'The command.' }),
  decoy: fc.constantFrom('none', 'none', 'defs-name', 'same-anchor', 'root-pointer'),
});

const LIB = 'https://example.com/lib.json';

/** The tool schema: `cmd` reaches `content` through `shape`; `decoyContent` sits where `shape.decoy` says. */
function build(shape: Shape, content: JsonObject, decoyContent: JsonObject): JsonObject {
  const root: JsonObject = { type: 'object', required: ['cmd'], additionalProperties: false };
  const properties: JsonObject = {};
  const defs: JsonObject = {};
  const node: JsonObject = { ...content };
  let ref: JsonObject;
  // Where the target goes, and its pointer from the root (or from its resource, for `lib`).
  let pointer: string;
  if (shape.place === 'lib') {
    defs.lib = { $id: LIB, type: 'object', $defs: { tgt: node } };
    pointer = '/$defs/tgt';
  } else if (shape.place === '$defs' || shape.place === 'definitions') {
    if (shape.place === '$defs') defs.tgt = node;
    else root.definitions = { tgt: node };
    pointer = `/${shape.place}/tgt`;
  } else if (shape.place === 'properties') {
    properties.other = node;
    pointer = '/properties/other';
  } else if (shape.place === 'items') {
    properties.list = { type: 'array', items: node };
    pointer = '/properties/list/items';
  } else {
    root['x-vendor'] = node;
    pointer = '/x-vendor';
  }
  const inLib = shape.place === 'lib';
  switch (shape.form) {
    case 'anchor':
      node.$anchor = 'tgt';
      ref = { $ref: inLib ? `${LIB}#tgt` : '#tgt' };
      break;
    case 'urn':
      node.$id = 'urn:example:tgt';
      ref = { $ref: 'urn:example:tgt' };
      break;
    case 'absolute':
      node.$id = 'https://example.com/tgt.json';
      ref = { $ref: 'https://example.com/tgt.json' };
      break;
    case 'relative':
      // Relative to the root's $id, or to the embedded resource's: both are in https://example.com/.
      root.$id = 'https://example.com/tools/run.json';
      node.$id = inLib ? 'tgt.json' : 'tgt/cmd.json';
      ref = { $ref: inLib ? 'https://example.com/tgt.json' : 'tgt/cmd.json' };
      break;
    case 'pointer':
      ref = { $ref: inLib ? `${LIB}#${pointer}` : `#${pointer}` };
      break;
    case 'dynamic-anchor':
      node.$dynamicAnchor = 'tgt';
      ref = { $dynamicRef: '#tgt' };
      break;
    case 'dynamic-root':
      root.$dynamicAnchor = 'tgt';
      ref = { $dynamicRef: '#tgt' };
      break;
    case 'recursive-root':
      root.$recursiveAnchor = true;
      ref = { $recursiveRef: '#' };
      break;
  }
  if (shape.decoy === 'defs-name' && shape.place !== '$defs') defs.tgt = { ...decoyContent };
  if (shape.decoy === 'same-anchor') root['x-decoy'] = { $anchor: 'tgt', ...decoyContent };
  if (shape.decoy === 'root-pointer' && inLib) defs.tgt = { ...decoyContent };
  properties.cmd = { ...ref, ...shape.sibling };
  root.properties = properties;
  if (Object.keys(defs).length > 0) root.$defs = defs;
  return root;
}

const pairArb = fc
  .record({
    before: shapeArb,
    after: shapeArb,
    sameShape: fc.boolean(),
    contents: fc.tuple(...[0, 1, 2, 3].map(() => fc.constantFrom(...CONTENTS))),
  })
  .map(({ before, after, sameShape, contents: [a, b, c, d] }) => ({
    before: build(before, a!, c!),
    after: build(sameShape ? before : after, b!, d!),
  }));

const VALUES: Json[] = ['ls', 'pwd', 'rm', '', 'lsx', 1, 2.5, null, true, ['ls'], {}, { cmd: 'ls' }, { cmd: 'rm' }, { cmd: { cmd: 'rm' } }];
/** Call arguments tried on both schemas. */
const ARGUMENTS: JsonObject[] = [
  {},
  ...VALUES.map((cmd) => ({ cmd })),
  { cmd: 'ls', other: 'rm' },
  { cmd: 'ls', other: 1 },
  { cmd: 'ls', list: ['rm'] },
  { cmd: 'ls', list: [1] },
];

/** The schema as a contract pins it, and as the proxy is given it. */
function pinned(schema: JsonObject): SurfaceTool {
  const t = normalizeTool({ tool: { name: 'run', inputSchema: schema } }, 0);
  if ('problem' in t) throw new Error(t.problem);
  return t;
}

const compiled2020 = new Map<string, ((args: Json) => boolean) | undefined>();
/** JSON Schema 2020-12 alone (Ajv2020 with the proxy's options); undefined when the schema does not compile in it. */
function ajv2020(schema: Json): ((args: Json) => boolean) | undefined {
  const text = JSON.stringify(schema);
  if (!compiled2020.has(text)) {
    const v = compileInputSchema(schema).validators.find((x) => x.dialect === 'JSON Schema 2020-12');
    compiled2020.set(text, v && ((args) => v.validate(args) === true));
  }
  return compiled2020.get(text);
}

describe('property: a widening Ajv sees is a widening toolgate reports', () => {
  it('for references of every form', async () => {
    const checker = new ArgumentsChecker();
    await fc.assert(
      fc.asyncProperty(pairArb, async ({ before, after }) => {
        const [b, a] = [pinned(before), pinned(after)];
        const [b20, a20] = [ajv2020(b.inputSchema!), ajv2020(a.inputSchema!)];
        const newlyAccepted = ARGUMENTS.filter((args) => (checker.check(a, args).ok && !checker.check(b, args).ok) || (b20 && a20 && a20(args) && !b20(args)));
        if (newlyAccepted.length === 0) return;
        const v = await classifySchemaChange(b.inputSchema!, a.inputSchema!);
        expect(['widened', 'both', 'unclassified'], `${JSON.stringify(newlyAccepted[0])} is newly accepted; verdict ${JSON.stringify(v)}`).toContain(v.kind);
      }),
      { numRuns: RUNS },
    );
  });
});

/** How `dialectSchema` writes its constraint on `cmd`: in a form one dialect defines and the other may not. */
const DIALECT_FORMS = [
  'plain',
  'dependencies-required',
  'dependentRequired',
  'dependencies-schema',
  'dependentSchemas',
  'items-tuple',
  'prefixItems',
  'ref-root',
  'recursive-root',
  'recursive-anchored',
  'dynamic-root',
] as const;

interface DialectShape {
  form: (typeof DIALECT_FORMS)[number];
  /** A draft-07 tuple beside: the schema then compiles as draft-07 only. */
  draft07Tuple: boolean;
}

const dialectShapeArb: fc.Arbitrary<DialectShape> = fc.record({ form: fc.constantFrom(...DIALECT_FORMS), draft07Tuple: fc.boolean() });

/** The tool schema: `content` limits `cmd` (or `args`' first item, or `sub`'s `cmd`) through `shape.form`. */
function dialectSchema(shape: DialectShape, content: JsonObject): JsonObject {
  const properties: JsonObject = { cmd: { type: 'string' }, force: { type: 'boolean' }, confirm: { type: 'boolean' }, args: { type: 'array' }, sub: {} };
  // An `$id`: Ajv (addUsedSchema off) resolves `"$ref": "#"` only in a schema that has one.
  const root: JsonObject = { $id: 'https://example.com/tools/run.json', type: 'object', required: ['cmd'], properties };
  const requires = (kw: string) => (root[kw] = { force: ['confirm'] });
  const limits = (kw: string) => (root[kw] = { force: { properties: { cmd: content } } });
  switch (shape.form) {
    case 'plain':
      properties.cmd = { ...content };
      break;
    case 'dependencies-required':
      requires('dependencies');
      break;
    case 'dependentRequired':
      requires('dependentRequired');
      break;
    case 'dependencies-schema':
      limits('dependencies');
      break;
    case 'dependentSchemas':
      limits('dependentSchemas');
      break;
    case 'items-tuple':
      properties.args = { type: 'array', items: [content] };
      break;
    case 'prefixItems':
      properties.args = { type: 'array', prefixItems: [content] };
      break;
    case 'ref-root':
      properties.cmd = { ...content };
      properties.sub = { $ref: '#' };
      break;
    case 'recursive-root':
      properties.cmd = { ...content };
      properties.sub = { $recursiveRef: '#' };
      break;
    case 'recursive-anchored':
      root.$recursiveAnchor = true;
      properties.cmd = { ...content };
      properties.sub = { $recursiveRef: '#' };
      break;
    case 'dynamic-root':
      root.$dynamicAnchor = 'node';
      properties.cmd = { ...content };
      properties.sub = { $dynamicRef: '#node' };
      break;
  }
  if (shape.draft07Tuple) properties.pair = { type: 'array', items: [{ type: 'string' }, { type: 'string' }] };
  return root;
}

/** Each form's spelling in the other dialect (what a server rewrites when it changes its JSON Schema target). */
const TWINS: Readonly<Record<DialectShape['form'], readonly DialectShape['form'][]>> = {
  plain: ['plain'],
  'dependencies-required': ['dependentRequired'],
  dependentRequired: ['dependencies-required'],
  'dependencies-schema': ['dependentSchemas'],
  dependentSchemas: ['dependencies-schema'],
  'items-tuple': ['prefixItems'],
  prefixItems: ['items-tuple'],
  'ref-root': ['recursive-root', 'recursive-anchored', 'dynamic-root'],
  'recursive-root': ['ref-root'],
  'recursive-anchored': ['ref-root'],
  'dynamic-root': ['ref-root'],
};

const dialectPairArb = fc
  .record({
    before: dialectShapeArb,
    after: dialectShapeArb,
    relation: fc.constantFrom('same', 'twin', 'twin', 'any'),
    twin: fc.nat(),
    sameTuple: fc.boolean(),
    contents: fc.tuple(fc.constantFrom(...CONTENTS), fc.constantFrom(...CONTENTS)),
  })
  .map(({ before, after, relation, twin, sameTuple, contents: [a, b] }) => {
    const twins = TWINS[before.form];
    const form = relation === 'same' ? before.form : relation === 'twin' ? twins[twin % twins.length]! : after.form;
    return { before: dialectSchema(before, a), after: dialectSchema({ form, draft07Tuple: sameTuple ? before.draft07Tuple : after.draft07Tuple }, b) };
  });

const CMDS: Json[] = ['ls', 'rm', 1, 'lsx'];
/** Call arguments tried on both schemas: each constraint's way round it. */
const DIALECT_ARGUMENTS: JsonObject[] = [
  ...CMDS.map((cmd) => ({ cmd })),
  ...CMDS.map((cmd) => ({ cmd: 'ls', force: true, args: [cmd] })),
  ...CMDS.map((cmd) => ({ cmd, force: true })),
  ...CMDS.map((cmd) => ({ cmd, force: true, confirm: true })),
  ...CMDS.map((cmd) => ({ cmd: 'ls', sub: { cmd } })),
  ...CMDS.map((cmd) => ({ cmd: 'ls', args: [cmd], pair: ['a', 'b'] })),
];

describe('property: a widening Ajv sees in the dialects the proxy checks a schema in is a widening toolgate reports', () => {
  it('for schemas that compile in one dialect only, and keywords one dialect does not define', async () => {
    const checker = new ArgumentsChecker();
    await fc.assert(
      fc.asyncProperty(dialectPairArb, async ({ before, after }) => {
        const [b, a] = [pinned(before), pinned(after)];
        // An old schema no dialect compiles refused every call; the diff judges what it says (what was reviewed).
        if (compileInputSchema(b.inputSchema!).validators.length === 0) return;
        const newlyAccepted = DIALECT_ARGUMENTS.filter((args) => checker.check(a, args).ok && !checker.check(b, args).ok);
        if (newlyAccepted.length === 0) return;
        const v = await classifySchemaChange(b.inputSchema!, a.inputSchema!);
        expect(['widened', 'both', 'unclassified'], `${JSON.stringify(newlyAccepted[0])} is newly accepted; verdict ${JSON.stringify(v)}`).toContain(v.kind);
      }),
      { numRuns: RUNS },
    );
  });
});
