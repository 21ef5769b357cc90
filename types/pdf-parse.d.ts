// pdf-parse ships no types. Its library file is imported directly: the package's index.js runs a
// debug routine when it believes it is the main module, which it does under jest.
declare module "pdf-parse/lib/pdf-parse.js" {
  interface ParsedPdf {
    numpages: number;
    text: string;
  }
  function parsePdf(data: Buffer): Promise<ParsedPdf>;
  export = parsePdf;
}
