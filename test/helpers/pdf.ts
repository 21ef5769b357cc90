export interface ParsedPdf {
  numpages: number;
  text: string;
}

// The package's index.js runs a debug routine when it believes it is the main module, which is
// the case under jest; its library file has no such side effect. pdf-parse ships no types.
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const parsePdf = require("pdf-parse/lib/pdf-parse.js") as (data: Buffer) => Promise<ParsedPdf>;
