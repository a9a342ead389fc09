import * as cedar from '@cedar-policy/cedar-wasm/nodejs';
import { permitFor } from '../src/export/targets/toolhive-cedar.ts';
const tool: any = { name: 'sea"rch\u2028', declaredHints: { readOnlyHint: true }, inputSchema: { type: 'object', properties: { mode: { enum: ['fast', 'slow'] }, q: { type: 'string' }, flag: { type: 'boolean' }, opts: { type: 'object' } } } };
const p = permitFor(tool);
console.log(p);
const policies = { staticPolicies: p };
const req = (name: string, attrs: any) => cedar.isAuthorized({
  principal: { type: 'Client', id: 'u' }, action: { type: 'Action', id: 'call_tool' }, resource: { type: 'Tool', id: name }, context: {},
  policies, entities: [{ uid: { type: 'Tool', id: name }, attrs, parents: [] }],
} as any);
const show = (r: any) => r.type === 'success' ? `${r.response.decision} ${JSON.stringify(r.response.diagnostics.errors)}` : JSON.stringify(r.errors);
console.log(show(req(tool.name, { readOnlyHint: true, arg_mode: 'fast', arg_q: 'x', arg_flag: true, arg_opts_present: true })));
console.log(show(req(tool.name, { readOnlyHint: true })));
console.log(show(req(tool.name, { readOnlyHint: true, arg_mode: 'medium' })));
console.log(show(req(tool.name, { readOnlyHint: true, arg_q: { __extn: { fn: 'decimal', arg: '1.0' } } })));
console.log(show(req(tool.name, { readOnlyHint: false })));
console.log(show(req(tool.name, {})));
console.log(show(req('other', { readOnlyHint: true })));
console.log(show(req(tool.name, { readOnlyHint: true, arg_opts: 'scalar' })));
console.log(show(req(tool.name, { readOnlyHint: true, destructiveHint: false })));
