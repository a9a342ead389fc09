import { parse } from 'yaml';

interface ActionYml {
  inputs?: Record<string, { description?: string; default?: string; required?: boolean }>;
  outputs?: Record<string, { description?: string }>;
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ').trim();

/** The inputs/outputs tables of docs/action.md, from action.yml. */
export function actionReference(actionYml: string): string {
  const a = parse(actionYml) as ActionYml;
  const out = ['## Inputs', '', '| input | default | description |', '|---|---|---|'];
  for (const [name, i] of Object.entries(a.inputs ?? {})) {
    out.push(`| \`${name}\` | ${i.default ? `\`${i.default}\`` : ''} | ${cell(i.description ?? '')} |`);
  }
  out.push('', '## Outputs', '', '| output | description |', '|---|---|');
  for (const [name, o] of Object.entries(a.outputs ?? {})) out.push(`| \`${name}\` | ${cell(o.description ?? '')} |`);
  return out.join('\n');
}

/** Replaces the text between `<!-- name:start -->` and `<!-- name:end -->` of `file` (named in the error). */
export function replaceBetweenMarkers(text: string, name: string, body: string, from = 'action.yml', file = 'docs/action.md'): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  if (i < 0 || j < i) throw new Error(`${file} lacks the markers ${start} … ${end}`);
  return `${text.slice(0, i + start.length)}\n<!-- Generated from ${from} by \`npm run docs\`. -->\n${body}\n${text.slice(j)}`;
}
