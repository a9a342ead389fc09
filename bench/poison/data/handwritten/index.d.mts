/** Types of the handwritten development set (index.mjs), for the tests that read it. */
export interface HandwrittenTool {
  name: string;
  [key: string]: unknown;
}
export const HANDWRITTEN_POISONED: { id: string; category: string; poisoned: string; tools: HandwrittenTool[] }[];
export const HANDWRITTEN_BENIGN: { id: string; tools: HandwrittenTool[] }[];
