/** A-Z made a-z, nothing else: how SQLite's NOCASE (and `lower()` of a `"C"` column) fold text. */
export const asciiLower = (text: string): string => text.replace(/[A-Z]+/g, upper => upper.toLowerCase())

/**
 * Text by Unicode code point, which is the order of its UTF-8 bytes (SQLite's BINARY collation,
 * PostgreSQL's "C", a file system's names as bytes). JavaScript's `<` compares UTF-16 code units,
 * which puts U+E000..U+FFFF after the surrogate pairs of U+10000 and above: at the first
 * difference, surrogates are moved above the BMP.
 */
export function compareCodePoints (a: string, b: string): number {
  const length = Math.min(a.length, b.length)
  for (let i = 0; i < length; i++) {
    const p = a.charCodeAt(i)
    const q = b.charCodeAt(i)
    if (p !== q) return codePointRank(p) - codePointRank(q)
  }
  return a.length - b.length
}

const codePointRank = (unit: number): number => unit >= 0xE000 ? unit - 0x800 : unit >= 0xD800 ? unit + 0x2000 : unit
