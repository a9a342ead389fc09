// Helpers for the handwritten development set (README.md in this folder): a tool from a name, a
// description and its arguments; a case from a category and its tools.

/** An argument: a string is its description; an object is its schema (type string unless given). */
const arg = (v) => (typeof v === 'string' ? { type: 'string', description: v } : { type: 'string', ...v });

/** An MCP tool: name, description, arguments (`{name: description | schema}`), anything else (title, annotations). */
export const tool = (name, description, props = {}, extra = {}) => ({
  name,
  ...(description !== undefined ? { description } : {}),
  inputSchema: { type: 'object', properties: Object.fromEntries(Object.entries(props).map(([k, v]) => [k, arg(v)])) },
  ...extra,
});

/** Numbers cases within a category: `hw-<category>-<n>`; the first tool is the poisoned one unless named. */
export function casesOf(category, list) {
  return list.map((tools, i) => ({
    id: `hw-${category}-${i + 1}`,
    category,
    poisoned: (Array.isArray(tools) ? tools[0] : tools).name,
    tools: Array.isArray(tools) ? tools : [tools],
  }));
}
