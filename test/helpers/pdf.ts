import parsePdf = require("pdf-parse/lib/pdf-parse.js");

export { parsePdf };
