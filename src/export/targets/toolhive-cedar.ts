/**
 * ToolHive's Cedar authorization (`thv run --authz-config FILE`): one `permit` per admitted tool
 * for `Action::"call_tool"` on `Tool::"<name>"`, with what Cedar can check of the pinned tool as
 * ToolHive presents a call (stacklok/toolhive v0.44, `pkg/authz/authorizers/cedar/core.go`):
 *
 * - arguments are resource attributes `arg_<name>`; strings, booleans and numbers (as Cedar
 *   `decimal`) keep their value, objects, arrays and null only give `arg_<name>_present`;
 * - the four hints are resource attributes, present only when the server declared them (from the
 *   server's own listing, ToolHive >= v0.11.3, `pkg/authz/annotations.go`);
 * - `tools/list` is filtered by evaluating `call_tool` for each tool *without* arguments, so a
 *   condition that needs an argument would hide the tool: every argument condition holds when the
 *   argument is absent (required arguments are the server's to check);
 * - an evaluation error denies the request (not only the policy), so every read of an optional
 *   attribute is guarded by `has`;
 * - nothing is permitted unless a policy permits it (default deny).
 *
 * The file is YAML (ToolHive reads `.yaml`/`.yml` as YAML), so the header can be comments.
 */
import { HINT_NAMES, type SurfaceTool } from '../../surface/model.js';
import { getOwn, isObject, type Json } from '../../util/json.js';
import { cedarString } from '../literals.js';
import type { ExportTarget } from '../model.js';
import { toYaml } from '../yaml.js';

/** Whether every value of an `enum`/`const` is a string (then Cedar can compare it exactly). */
function stringValues(schema: { [k: string]: Json }): string[] | undefined {
  const c = getOwn(schema, 'const');
  if (typeof c === 'string') return [c];
  const e = getOwn(schema, 'enum');
  if (Array.isArray(e) && e.length > 0 && e.every((v) => typeof v === 'string')) return e;
  return undefined;
}

/** Cedar conditions for one argument; none when Cedar cannot check its pinned schema. */
function argumentConditions(name: string, schema: Json): string[] {
  if (!isObject(schema)) return [];
  const attr = cedarString(`arg_${name}`);
  const absent = `!(resource has ${attr})`;
  const value = `resource[${attr}]`;
  const values = stringValues(schema);
  if (values) return [`(${absent} || [${values.map(cedarString).join(', ')}].contains(${value}))`];
  const type = getOwn(schema, 'type');
  // `like` on anything but a String is a type error, which ToolHive turns into a deny.
  if (type === 'string') return [`(${absent} || ${value} like "*")`];
  if (type === 'boolean') return [`(${absent} || ${value} == true || ${value} == false)`];
  // An object or array reaches Cedar only as `arg_<name>_present`: a scalar value here is refused.
  if (type === 'object' || type === 'array') return [absent];
  return [];
}

/** The hints as pinned: a declared hint must be served with the same value, an undeclared one not at all. */
function hintConditions(tool: SurfaceTool): string[] {
  return HINT_NAMES.map((h) => {
    const v = tool.declaredHints[h];
    return v === undefined ? `!(resource has ${h})` : `resource has ${h} && resource.${h} == ${v}`;
  });
}

/** The conditions of one tool's permit. */
export function toolConditions(tool: SurfaceTool): string[] {
  const props = tool.inputSchema ? getOwn(tool.inputSchema, 'properties') : undefined;
  const args = isObject(props)
    ? Object.keys(props)
        .sort()
        .flatMap((p) => argumentConditions(p, getOwn(props, p) as Json))
    : [];
  return [...hintConditions(tool), ...args];
}

/** One policy, on one line (a one-line diff per tool). */
export function permitFor(tool: SurfaceTool): string {
  const scope = `permit (principal, action == Action::"call_tool", resource == Tool::${cedarString(tool.name)})`;
  const when = toolConditions(tool);
  return when.length ? `${scope} when { ${when.join(' && ')} };` : `${scope};`;
}

export const toolhiveCedarTarget: ExportTarget = {
  id: 'toolhive-cedar',
  product: 'ToolHive (Cedar)',
  artifact: 'Cedar authorization config (`cedarv1`, `thv run --authz-config`)',
  docs: 'https://docs.stacklok.com/toolhive/concepts/cedar-policies',
  comment: '#',
  suggestedFile: (server) => `deploy/toolhive/${server}.authz.yaml`,
  enforces: { names: 'yes', arguments: 'partial', annotations: 'yes', schemaPin: 'partial' },
  verifiedBy:
    'Cedar itself (`@cedar-policy/cedar-wasm` 4.13): allow for admitted tools called as ToolHive presents them, deny for unlisted tools, broken enums and types, drifted hints',
  cannot: [
    "Unknown arguments: Cedar cannot list a record's attributes, so arguments the schema does not declare reach the server.",
    'Required arguments: ToolHive filters tools/list by evaluating call_tool without arguments, so requiring one would hide the tool; the server checks them.',
    'Numbers, nested objects and arrays: ToolHive gives Cedar numbers as decimals and objects or arrays only as arg_<name>_present; only strings (type, enum, const) and booleans are checked.',
    'Definitions: only the hints are compared with the pinned ones (ToolHive >= v0.11.3 gives Cedar the served hints); a changed description or schema passes.',
  ],
  render(input) {
    const policies = input.admitted.map(permitFor);
    // ToolHive refuses a config without policies: a `forbid` of everything keeps the file valid
    // and permits nothing.
    if (policies.length === 0) policies.push('forbid (principal, action, resource);');
    return toYaml({ version: '1.0', type: 'cedarv1', cedar: { policies, entities_json: '[]' } });
  },
};
