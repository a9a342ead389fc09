/**
 * Texts that rows of several rule families share: the citation of the MCP spec's annotation
 * defaults and the fix of every finding that a contract update resolves.
 *
 * @module
 */

/** Where the hints' defaults come from. */
export const SPEC_ANNOTATIONS = 'MCP spec 2025-11-25, Server Features › Tools › Tool annotations (ToolAnnotations defaults)';

/** The fix of a finding that `toolgate update` and a reviewed contract diff resolve. */
export const UPDATE = 'Run `toolgate update`, review the contract diff and commit it.';
