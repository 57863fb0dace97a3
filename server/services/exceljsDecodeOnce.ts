import utils from 'exceljs/lib/utils/utils.js'

/*
 * exceljs 4.4 decodes XML entities twice when it reads: saxes has already turned `&amp;amp;` into
 * `&amp;` when its readers pass inline strings, formula results and sheet names through
 * utils.xmlDecode again, so a text holding "&amp;" came back as "&" (our own xlsx downloads write
 * inline strings: loaded again, they changed data). Every XML exceljs reads goes through saxes, so
 * the second decoding is made the identity; its writers encode with xmlEncode and are untouched.
 * Imported, for this effect, by every module that reads a workbook.
 */
utils.xmlDecode = (text: string) => text
