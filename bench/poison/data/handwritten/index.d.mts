/** Types of the handwritten development set (index.mjs), for the tests that read it. */
export interface HandwrittenTool {
  name: string;
  [key: string]: unknown;
}
export const HANDWRITTEN_POISONED: { id: string; category: string; poisoned: string; tools: HandwrittenTool[] }[];
export const HANDWRITTEN_BENIGN: { id: string; tools: HandwrittenTool[] }[];
/** The third batch (varied.mjs): ids `hw3-…`. */
export const VARIED_POISONED: { id: string; category: string; poisoned: string; tools: HandwrittenTool[] }[];
export const VARIED_BENIGN: { id: string; tools: HandwrittenTool[] }[];
/** The fourth batch (after.mjs), written after the rows and run once: ids `hw4-…`. */
export const AFTER_POISONED: { id: string; category: string; poisoned: string; tools: HandwrittenTool[] }[];
export const AFTER_BENIGN: { id: string; tools: HandwrittenTool[] }[];
/** The fifth batch (fifth.mjs), written after the rows and run once: ids `hw5-…`. */
export const FIFTH_POISONED: { id: string; category: string; poisoned: string; tools: HandwrittenTool[] }[];
/** The sixth batch (sixth.mjs), written before its round's rows and run once: ids `hw6-…`. */
export const SIXTH_POISONED: { id: string; category: string; poisoned: string; tools: HandwrittenTool[] }[];
export const SIXTH_BENIGN: { id: string; tools: HandwrittenTool[] }[];
/** The seventh batch (seventh.mjs), written after the sixth batch's rows and run once: ids `hw7-…`. */
export const SEVENTH_POISONED: { id: string; category: string; poisoned: string; tools: HandwrittenTool[] }[];
export const SEVENTH_BENIGN: { id: string; tools: HandwrittenTool[] }[];
/** The eighth batch (eighth.mjs), written before its round's rows and run once: ids `hw8-…`. */
export const EIGHTH_POISONED: { id: string; category: string; poisoned: string; tools: HandwrittenTool[] }[];
export const EIGHTH_BENIGN: { id: string; tools: HandwrittenTool[] }[];
/** The ninth batch (ninth.mjs), techniques from public write-ups, written before its round's rows and run once: ids `hw9-…`. */
export const NINTH_POISONED: { id: string; category: string; poisoned: string; tools: HandwrittenTool[] }[];
export const NINTH_BENIGN: { id: string; tools: HandwrittenTool[] }[];
/** Tricky benign servers written beside the ninth batch's rows, after its first run. */
export const NINTH_ROWS_BENIGN: { id: string; tools: HandwrittenTool[] }[];
